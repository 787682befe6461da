import { health } from '../../shared/domain/health';
import { probeHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/health';

export const handler = probeHandler(operation, async () => health());
