/** A `toolseam` subcommand: receives its own arguments, returns the process exit code. */
export type Command = (argv: string[]) => Promise<number>;
