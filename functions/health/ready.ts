import { ready } from '../../shared/domain/health';
import { probeHandler } from '../../shared/http/handler';
import { route } from '../../shared/routes';

export const handler = probeHandler(route('ready'), async () => ready());
