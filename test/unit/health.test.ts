import { describe, expect, it } from 'vitest';
import { classify, overall } from '../../shared/domain/health';

describe('health classification', () => {
  it('is healthy when fast, degraded when slow, unhealthy when failing', () => {
    expect(classify(10, false, 250)).toBe('healthy');
    expect(classify(250, false, 250)).toBe('healthy');
    expect(classify(251, false, 250)).toBe('degraded');
    expect(classify(1, true, 250)).toBe('unhealthy');
  });

  it('takes the worst dependency', () => {
    const c = (status: 'healthy' | 'degraded' | 'unhealthy') => ({ status, responseTimeMs: 1, error: null });
    expect(overall([c('healthy'), c('healthy')])).toBe('healthy');
    expect(overall([c('healthy'), c('degraded')])).toBe('degraded');
    expect(overall([c('degraded'), c('unhealthy')])).toBe('unhealthy');
  });
});
