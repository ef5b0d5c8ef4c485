import { describe, expect, it } from 'vitest';
import { hashOf, routeOf } from '../../web/src/route.js';

describe('routeOf', () => {
  it('reads each place of the page and back', () => {
    for (const route of [{ page: 'sessions' }, { page: 'tools' }, { page: 'chat', id: 'a b/c' }] as const) {
      expect(routeOf(hashOf(route))).toEqual(route);
    }
  });

  it('falls back to the sessions list', () => {
    expect(routeOf('')).toEqual({ page: 'sessions' });
    expect(routeOf('#/nowhere')).toEqual({ page: 'sessions' });
    expect(routeOf('#/sessions/%E0%A4%A')).toEqual({ page: 'chat', id: '%E0%A4%A' });
  });
});
