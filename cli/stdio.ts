// A closed stdout or stderr (`insightsctl status | head -1`, a terminal that went away) ends the
// command quietly with exit 0, as it would with SIGPIPE, which Node ignores: without a listener
// the EPIPE is an uncaught 'error' event and prints a stack trace. Help text is stripped of
// colour unless it goes to a terminal (citty colours it regardless).

let closed = false;
// EPIPE: the reader left, which is no failure. Anything else (ENOSPC on a redirect, EIO on a
// vanished terminal) is: said on stderr when that still works, and in the exit code.
let onClosed: (err: NodeJS.ErrnoException, stream: "stdout" | "stderr") => void = (err, stream) => {
  if (err.code === "EPIPE") process.exit(0);
  if (stream === "stdout") process.stderr.write(`insightsctl: cannot write the output: ${err.message}\n`, () => process.exit(1));
  else process.exit(1);
};

/**
 * Installs the handlers; call once, first thing. `stdoutOnly`: for the status line, which never
 * writes to stderr: touching process.stderr creates its stream (a socket for a pipe), a cost the
 * status line, run after every message, does without.
 */
export function guardOutput(stdoutOnly = false): void {
  const streams = stdoutOnly ? ([["stdout", process.stdout]] as const) : ([["stdout", process.stdout], ["stderr", process.stderr]] as const);
  for (const [name, stream] of streams) {
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (closed) return;
      closed = true;
      onClosed(err, name);
    });
  }
}

/** Replaces what a closed output does (the foreground daemon stops cleanly instead of exiting). */
function whenOutputCloses(fn: (err: NodeJS.ErrnoException, stream: "stdout" | "stderr") => void): void {
  onClosed = fn;
}

/**
 * For a daemon running in this process (`start --foreground`): a closed output stops it through
 * its own SIGTERM drain, once it listens for SIGTERM (output may close while it still starts).
 */
export function stopWhenOutputCloses(): void {
  whenOutputCloses(() => {
    const timer = setInterval(() => {
      if (process.listenerCount("SIGTERM") === 0) return;
      clearInterval(timer);
      process.kill(process.pid, "SIGTERM");
    }, 50);
  });
}

/** Text for stdout: colour codes only when stdout is a terminal and NO_COLOR is unset. */
export function forStdout(text: string): string {
  if (process.stdout.isTTY && !process.env.NO_COLOR) return text;
  // node:util only here: importing it loads every export it has (parseArgs, MIMEType, ...), which
  // each command would pay for at start.
  return process.getBuiltinModule("node:util").stripVTControlCharacters(text);
}
