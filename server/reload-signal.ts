/**
 * SIGHUP, the documented reload, must never end the process, not even while it starts (Node's
 * default for SIGHUP is to exit). Imported first by index.ts, so the listener is in place before
 * the rest of the server is even evaluated; a SIGHUP before the server runs is a reload once it
 * does (a build may have been published meanwhile). Under IPC it says when it is in place.
 */
let reload: (() => void) | null = null;
let pending = false;

process.on('SIGHUP', () => {
  if (reload) reload();
  else pending = true;
});
if (process.send) process.send({ starting: true });

/** Hands SIGHUP to `fn` from now on, and runs it at once for one received before. */
export function onReloadSignal(fn: () => void): void {
  reload = fn;
  if (pending) {
    pending = false;
    fn();
  }
}
