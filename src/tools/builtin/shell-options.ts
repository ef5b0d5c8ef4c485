/** How the `bash` tool runs its commands (the config's `"shell"`; every setting optional). */
export interface ShellOptions {
  /**
   * `on` (the default): every command runs in a sandbox the kernel enforces, and `bash` is not offered
   * where none can start. `off`: commands run unconfined, as toolseam's user, and the tool says so.
   */
  readonly sandbox?: 'on' | 'off';
  /** Whether a sandboxed command reaches the network; default false. */
  readonly network?: boolean;
  /** Environment variables a command gets besides the fixed few (never one named like a credential). */
  readonly env?: readonly string[];
  /** More files or folders a sandboxed command may read (read-only), absolute. */
  readonly read?: readonly string[];
  /** The bubblewrap program; default: the system's (for a host that keeps its own, and for tests). */
  readonly bwrap?: string;
}

/** A variable name that says it holds a credential: such a variable never reaches a command. */
export const CREDENTIAL_WORDS = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL/i;

/** What a shell variable's name may look like. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
