// The child side of bench/child.ts. Kept apart (and free of imports) so a child loads nothing but
// what it measures.

/** A child's last word: its result, or the error that ended it. */
export type ChildMessage<T> = { ok: true; result: T } | { ok: false; error: string };

/** The JSON input the runner passed in argv[2]. */
export function childInput<T>(): T {
  const raw = process.argv[2];
  if (!raw) throw new Error("no input: run this through bench/child.ts");
  return JSON.parse(raw) as T;
}

/** Sends the result (or the error) to the runner and exits once it is delivered. */
export function reply<T>(work: () => Promise<T>): void {
  const send = (m: ChildMessage<T>): void => {
    if (!process.send) {
      // Run by hand: print instead.
      process.stdout.write(`${JSON.stringify(m)}\n`);
      process.exit(m.ok ? 0 : 1);
    }
    process.send(m, () => process.exit(m.ok ? 0 : 1));
  };
  work().then(
    (result) => send({ ok: true, result }),
    (err: unknown) => send({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
}
