/** A module imported on its first use and kept: an SDK costs its import only to the adapters that call it. */
export interface LazyModule<M> {
  /** The module, importing it the first time. */
  load(): Promise<M>;
  /** The module once a `load()` has finished; undefined before (no error of it can exist yet). */
  readonly loaded: M | undefined;
}

/** Wraps `importer` (a dynamic `import()`) so that it runs at most once, on the first `load()`. */
export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let loading: Promise<M> | undefined;
  let loaded: M | undefined;
  return {
    load() {
      loading ??= importer().then((module) => {
        loaded = module;
        return module;
      });
      return loading;
    },
    get loaded() {
      return loaded;
    },
  };
}
