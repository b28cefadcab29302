// What the Claude Code demo works on: a developer's day on a made-up product (Acme Cloud), in
// three repositories. The bundle's sessions are written by test/tools/demo/build-claude-code-demo.ts; the
// live writer (writer.ts) keeps going in the billing service with the exchanges below. Plainly a
// demo: the first prompt of each session starts with "Demo:".

/** The project the live writer works in. */
export const WRITER_CWD = "/home/op/code/acme-billing";
export const WRITER_MODEL = "claude-sonnet-4-5-20250929";

/** The first prompt of a session the writer starts (after a rollover). */
export const NEW_SESSION_PROMPT = "Demo: pick up the next billing ticket for the Acme Cloud billing service.";

export interface CcExchange {
  prompt: string;
  /** Said before the tool call, when there is one. */
  lead?: string;
  bash?: { command: string; description: string; stdout: string };
  answer: string;
}

export const CC_EXCHANGES: readonly CcExchange[] = [
  {
    prompt: "Add a test for a 3-line invoice whose lines round up.",
    lead: "I'll look at the existing invoice tests first.",
    bash: { command: "ls test/invoice", description: "List the invoice tests", stdout: "lines.test.ts\ntotal.test.ts\ntax.test.ts" },
    answer: "Added `rounds each line before summing` to `test/invoice/total.test.ts`: three lines of 0.335 each give 1.02, not 1.01. It passes.",
  },
  {
    prompt: "Why does the EU invoice show VAT twice?",
    lead: "Let me find where VAT lines are added.",
    bash: {
      command: 'rg -n "addTaxLine" src',
      description: "Find where tax lines are added",
      stdout: "src/invoice/tax.ts:22:export function addTaxLine(inv: Invoice, rate: number) {\nsrc/invoice/build.ts:48:  addTaxLine(inv, vatRate(customer));\nsrc/invoice/eu.ts:31:  addTaxLine(inv, vatRate(customer));",
    },
    answer: "`src/invoice/eu.ts:31` adds the VAT line again after `build.ts:48` already did. Removing the call in `eu.ts` fixes it; the EU-specific part there is only the reverse-charge note.",
  },
  {
    prompt: "Rename `amountCents` to `amountMinor` in the invoice model.",
    lead: "Checking how many places use the field.",
    bash: { command: 'rg -l "amountCents" src test | wc -l', description: "Count files using the field", stdout: "14" },
    answer: "Renamed in 14 files (model, serializers, tests) and added a migration that renames the column. `npm test` passes.",
  },
  {
    prompt: "What does the nightly dunning job do when a card keeps failing?",
    answer:
      "It retries on day 1, 3 and 7 after the failed charge. After the third failure the subscription goes to `past_due`, the workspace owner gets the final-notice email, and on day 14 the workspace is downgraded to the free plan. The schedule is in `src/dunning/schedule.ts`.",
  },
  {
    prompt: "Make the currency formatter use the customer's locale.",
    lead: "I'll see how the formatter is called.",
    bash: {
      command: 'rg -n "formatMoney\\(" src | head -3',
      description: "Find formatter calls",
      stdout: "src/pdf/invoice.ts:64:    formatMoney(line.amount, inv.currency),\nsrc/email/receipt.ts:19:  const total = formatMoney(inv.total, inv.currency);\nsrc/money.ts:30:export function formatMoney(amount: number, currency: string) {",
    },
    answer: "`formatMoney` now takes an optional locale and uses `Intl.NumberFormat(locale, { style: 'currency', currency })`; the PDF and the receipt email pass `customer.locale`. German customers now see `1.234,50 €`.",
  },
  {
    prompt: "Is there a race when two webhooks for the same payment arrive at once?",
    answer:
      "Yes: both handlers read the invoice as `open` and both mark it paid, so the receipt email goes out twice. Wrapping the update in `UPDATE ... WHERE status = 'open'` and sending the email only when a row changed makes it safe.",
  },
  {
    prompt: "Run the billing tests and tell me what fails.",
    lead: "Running the test suite.",
    bash: { command: "npm test --silent", description: "Run the billing tests", stdout: "# tests 128\n# pass 127\n# fail 1\nnot ok 93 - proration for a mid-month downgrade" },
    answer: "One failure: `proration for a mid-month downgrade` expects 14.52 but gets 14.51, the same rounding-order issue as the invoice totals. Rounding once at the end fixes it.",
  },
  {
    prompt: "Summarize what changed on this branch for the PR description.",
    lead: "Reading the commits on the branch.",
    bash: { command: "git log --oneline main..HEAD", description: "List the branch's commits", stdout: "3f2a9c1 Round invoice totals once\n8b7e410 Add locale to money formatting\ne02b7d4 Round invoice lines to cents" },
    answer: "Three commits: invoice lines are rounded to cents, totals are rounded once at the end (fixing the one-cent differences), and money is formatted in the customer's locale on PDFs and receipts.",
  },
];
