/**
 * Fixed hourly rate windows aligned to the clock hour (docs/api.md, “Rate limits”). Pure: the caller supplies
 * the time and the count the window reached.
 */
import type { Window } from '../data/rateWindows';

const WINDOW_SECONDS = 3600;

export function windowAt(nowMs: number): Window {
  const start = Math.floor(nowMs / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
  return { start, end: start + WINDOW_SECONDS };
}

/** Seconds a refused client should wait: until the window ends, at least 1. */
export function retryAfterSeconds(window: Window, nowMs: number): number {
  return Math.max(1, Math.ceil(window.end - nowMs / 1000));
}

export function rateHeaders(limit: number, used: number, window: Window): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, limit - used)),
    'X-RateLimit-Reset': String(window.end),
  };
}
