/** Where the page is: the sessions list, one session's chat, or the Tools page. */
export type Route =
  | { readonly page: 'sessions' }
  | { readonly page: 'chat'; readonly id: string }
  | { readonly page: 'tools' };

/** Reads a location hash (`#/`, `#/sessions/ID`, `#/tools`) as a route. */
export function routeOf(hash: string): Route {
  const path = hash.replace(/^#/, '');
  if (path === '/tools') return { page: 'tools' };
  const chat = /^\/sessions\/([^/]+)$/.exec(path);
  if (chat?.[1]) return { page: 'chat', id: decoded(chat[1]) };
  return { page: 'sessions' };
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The hash that leads to a route. */
export function hashOf(route: Route): string {
  if (route.page === 'tools') return '#/tools';
  if (route.page === 'chat') return `#/sessions/${encodeURIComponent(route.id)}`;
  return '#/';
}
