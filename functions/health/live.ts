import { live } from '../../shared/domain/health';
import { probeHandler } from '../../shared/http/handler';
import { route } from '../../shared/routes';

export const handler = probeHandler(route('live'), async () => live());
