import { useEffect, useState } from 'preact/hooks';
import { type Route, routeOf } from './route.js';

/** The page's route, following the location hash. */
export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const follow = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}
