/**
 * `target` with `close` made a no-op: a run's own runtime closes what it was lent, and the store and
 * registry it borrows belong to the host, which closes them itself.
 */
export function borrowed<T extends { close(): Promise<void> }>(target: T): T {
  return new Proxy(target, {
    get(t, key) {
      if (key === 'close') return async () => {};
      const value = Reflect.get(t, key, t);
      // bound to the real object, so class methods keep their private fields
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}
