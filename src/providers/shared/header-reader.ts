/** Reads one response header (case-insensitive), or nothing. */
export type HeaderReader = (name: string) => string | null | undefined;
