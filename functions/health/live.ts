import { live } from '../../shared/domain/health';
import { probeHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/live';

export const handler = probeHandler(operation, async () => live());
