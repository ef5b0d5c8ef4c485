/** The streams a command writes to. */
type Output = Pick<NodeJS.WritableStream, 'on' | 'off'>;

let action: (() => void) | undefined;
let told = false;

/** A write failed because nobody reads the stream any more (`toolseam … | head` after head ended). */
function isClosedOutput(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

function onError(error: unknown): void {
  if (!isClosedOutput(error)) throw error; // any other write failure ends the process, as before
  if (told) return;
  told = true;
  action?.();
}

/**
 * Keeps the process going when the reader of its stdout or stderr goes away: Node would end it with
 * an unhandled 'error' stack trace, in the middle of a turn. Later writes are dropped unseen, and the
 * action a command set with `whenOutputCloses` (the chat stops its turn) runs once.
 */
export function survivingClosedOutput(streams: readonly Output[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) stream.on('error', onError);
}

/** Sets what the running command does when its output is closed; returns a function that unsets it. */
export function whenOutputCloses(then: () => void): () => void {
  action = then;
  return () => {
    if (action === then) action = undefined;
  };
}
