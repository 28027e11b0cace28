/**
 * The build's terminal output. On a TTY the running stage's progress is one line rewritten in
 * place; elsewhere (CI, pipes) a line is printed at every 10 % (every 100 items when the total is
 * unknown) so logs stay short but show life.
 * Whole lines (stage results, warnings) are printed above the progress line. Two stages may run
 * side by side (pipeline.ts): each keeps its own 10 % steps.
 */
import type { ProgressEvent } from './context.ts';

export interface Reporter {
  log(line: string): void;
  progress(event: ProgressEvent): void;
  /** Clears the progress line (before the summary or the error line). */
  done(): void;
}

export function createReporter(stream: NodeJS.WriteStream = process.stderr, tty = Boolean(stream.isTTY) && !process.env.CI): Reporter {
  let shown = false;
  const lastStep = new Map<string, number>();
  let lastDraw = 0;

  const clear = () => {
    if (shown) stream.write('\r\x1b[K');
    shown = false;
  };
  const text = ({ stage, done, total }: ProgressEvent) =>
    total ? `${stage}: ${done}/${total} (${Math.floor((done / total) * 100)} %)` : `${stage}: ${done}`;

  return {
    log(line) {
      clear();
      stream.write(line + '\n');
    },
    progress(event) {
      if (tty) {
        const now = Date.now();
        // Redraw at most every 50 ms, and always on the last step.
        if (now - lastDraw < 50 && event.done !== event.total) return;
        lastDraw = now;
        stream.write(`\r\x1b[K${text(event)}`);
        shown = true;
        return;
      }
      if (!event.total) {
        // Unknown total (astro's pages): a line per hundred.
        if (event.done > 0 && event.done % 100 === 0) stream.write(text(event) + '\n');
        return;
      }
      if (event.done === 0) return;
      const step = Math.floor((event.done / event.total) * 10);
      if (step > (lastStep.get(event.stage) ?? -1)) {
        lastStep.set(event.stage, step);
        stream.write(text(event) + '\n');
      }
    },
    done: clear,
  };
}
