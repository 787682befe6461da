/**
 * The authorizer's simulation (bench/lib/authorizerSim.ts, bench §13): containers with caches of
 * their own, bcrypt or the verifier on a miss, Lambda's concurrency as the second's budget of work,
 * deploys that make every container cold. Small scenarios whose outcome can be worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type AuthorizerDesign, type Scenario, type StepCosts } from '../../bench/lib/authorizerSim';

const costs: StepCosts = {
  invocationMs: 1,
  hitMs: 0.01,
  hmacMs: 0.01,
  bcryptMs: 100,
  getItemMs: 5,
  readsPerMiss: 2,
  writeMs: 5,
};
const bcryptOnly: AuthorizerDesign = { name: 'bcrypt', cacheKeys: 1_000, verifier: false };
const withVerifier: AuthorizerDesign = { name: 'verifier', cacheKeys: 100_000, verifier: true };
const scenario = (over: Partial<Scenario> = {}): Scenario => ({
  keys: 10_000,
  popularity: { kind: 'uniform' },
  rps: 2_000,
  seconds: 60,
  deployAt: null,
  concurrency: 100,
  ttlSeconds: 60,
  verifiedAtStart: 1,
  keepAliveSeconds: 30,
  seed: 7,
  ...over,
});

describe('the authorizer simulated', () => {
  it('serves a few keys from memory once each container has verified them, and counts every request once', () => {
    const r = simulate(bcryptOnly, costs, scenario({ keys: 10, rps: 100, concurrency: 10, seconds: 30 }));
    expect(r.served + r.refused).toBe(r.offered);
    expect(r.refused).toBe(0);
    expect(r.hitRate).toBeGreaterThan(0.9);
    expect(r.bcryptRuns).toBeLessThanOrEqual(10 * r.peakContainers);
    expect(r.p50Ms).toBeCloseTo(costs.invocationMs + costs.hitMs);
  });

  it('refuses what bcrypt on every miss cannot fit in the concurrency, never working more than it', () => {
    const r = simulate(bcryptOnly, costs, scenario());
    expect(r.refused).toBeGreaterThan(0);
    expect(r.secondsRefusing).toBe(60);
    // A second's work is at most the concurrency's: 100 executions × 1 s.
    expect(r.peakConcurrency).toBeLessThanOrEqual(100);
    expect(r.meanServedRps * r.meanMs).toBeLessThanOrEqual(100 * 1000 + 1e-6);
    // Nearly every served request ran bcrypt: 100 executions / 0.111 s ≈ 900 a second.
    expect(r.meanServedRps).toBeGreaterThan(800);
    expect(r.meanServedRps).toBeLessThan(1_000);
    expect(r.p99Ms).toBeCloseTo(costs.invocationMs + costs.hitMs + 2 * costs.getItemMs + costs.bcryptMs);
  });

  it('serves the same load with the verifier: one HMAC and two reads a miss, no bcrypt, nothing refused', () => {
    const r = simulate(withVerifier, costs, scenario());
    expect(r.refused).toBe(0);
    expect(r.minServedRps).toBe(2_000);
    expect(r.bcryptRuns).toBe(0);
    expect(r.p99Ms).toBeCloseTo(costs.invocationMs + costs.hitMs + 2 * costs.getItemMs + costs.hmacMs);
  });

  it("runs bcrypt once per key at the verifier's first deploy, writes the verifiers, and stops refusing once they are written", () => {
    const r = simulate(withVerifier, costs, scenario({ keys: 2_000, verifiedAtStart: 0, seconds: 120 }));
    expect(r.verifiersWritten).toBe(2_000);
    expect(r.bcryptRuns).toBeGreaterThanOrEqual(2_000);
    expect(r.refused).toBeGreaterThan(0);
    expect(r.lastRefusalAt).not.toBeNull();
    expect(r.lastRefusalAt!).toBeLessThan(60);
  });

  it('makes every container cold at a deploy: each key is judged again', () => {
    const run = (deployAt: number | null) =>
      simulate(
        { name: 'one container', cacheKeys: 100, verifier: false },
        { ...costs, bcryptMs: 1 },
        scenario({ keys: 20, rps: 50, concurrency: 1, seconds: 60, ttlSeconds: 10_000, deployAt }),
      );
    expect(run(null).bcryptRuns).toBe(20);
    expect(run(30).bcryptRuns).toBe(40);
    expect(run(30).minServedRpsAfterDeploy).toBe(50);
  });

  it('drops the key verified longest ago from a full cache: a small cache judges keys again', () => {
    const run = (cacheKeys: number) =>
      simulate(
        { name: 'small', cacheKeys, verifier: false },
        { ...costs, bcryptMs: 1 },
        scenario({ keys: 20, rps: 50, concurrency: 1, seconds: 60, ttlSeconds: 10_000 }),
      );
    expect(run(20).bcryptRuns).toBe(20);
    expect(run(10).bcryptRuns).toBeGreaterThan(500);
  });

  it('finds popular keys in memory more often under Zipf than under a uniform draw', () => {
    const uniform = simulate(withVerifier, costs, scenario({ seconds: 30 }));
    const zipf = simulate(withVerifier, costs, scenario({ seconds: 30, popularity: { kind: 'zipf', exponent: 0.8 } }));
    expect(zipf.hitRate).toBeGreaterThan(uniform.hitRate + 0.1);
    expect(zipf.meanMs).toBeLessThan(uniform.meanMs);
  });

  it('gives the same answer for the same seed', () => {
    expect(simulate(withVerifier, costs, scenario({ seconds: 10 }))).toEqual(
      simulate(withVerifier, costs, scenario({ seconds: 10 })),
    );
  });
});
