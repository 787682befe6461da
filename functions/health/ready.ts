import { ready } from '../../shared/domain/health';
import { probeHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/ready';

export const handler = probeHandler(operation, async () => ready());
