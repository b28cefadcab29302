// What the demo's agent talks about: a support assistant for a made-up product ("Acme Cloud")
// answering customer questions, a cron job that triages new tickets, and a sub-agent that
// researches a question for it. Short, plausible, and plainly a demo: the session names say
// "Demo: …" and nothing here pretends to be a real customer or company.
import { between, pick, type Random } from "../../../base/random.js";
import type { TokenCounts } from "./events.js";

export const DEMO_AGENT_NAME = "Demo support assistant";
export const MAIN_SESSION_NAME = "Demo: support inbox";
export const CRON_JOB_NAME = "Demo ticket triage";
export const CRON_JOB_MESSAGE = "Triage the support tickets that arrived since the last run: tag each one, answer how-to questions from the help center, and list anything that needs a human.";
export const SUBAGENT_LABEL = "Demo: research refund policies";

/** OpenClaw's preamble for isolated cron runs (as recorded, minus the two wall-clock lines). */
export const CRON_PREAMBLE =
  "This is an unattended scheduled run. Nobody is present to clarify or approve, so complete the task with what you have. Your final reply is the deliverable — not a plan, an acknowledgement, or a request for input. If nothing needs doing, reply exactly NO_REPLY. If something failed, state plainly what failed and what you tried — the scheduler owns retries and failure alerts. Where the job's own instructions conflict with this preamble, the job's instructions win (a question or plan the job explicitly requests is a valid deliverable). If this job is no longer needed, remove it if your available tools allow.";

interface Exchange {
  question: string;
  answer: string;
}

export const SUPPORT_EXCHANGES: readonly Exchange[] = [
  {
    question: "A customer says the password reset email never arrives. What should I tell them?",
    answer:
      "Ask them to check the spam folder first and to make sure they typed the address they signed up with. Reset links expire after 30 minutes, so an old email will not work. If nothing arrives within 5 minutes, send a new link from Admin > Users > Reset password; that one comes from a different sender and usually gets through corporate filters.",
  },
  {
    question: "How does someone download a copy of an old invoice?",
    answer:
      "Billing > Invoices lists every invoice of the last 24 months; the PDF button downloads it. Older invoices are not in the list, but they can reply to any billing email and we send them within a business day.",
  },
  {
    question: "Customer on the Starter plan hit the API rate limit. What are their options?",
    answer:
      "Starter allows 60 requests per minute per key. They can spread calls over more keys (up to 5 on Starter), batch writes with the bulk endpoint, or move to Team, which raises the limit to 600 per minute. The 429 response carries a Retry-After header; their client should honour it.",
  },
  {
    question: "Can a user export their project data to CSV?",
    answer:
      "Yes: Project settings > Export > CSV. Exports of up to 50,000 rows download at once; larger ones are emailed as a link that stays valid for 7 days.",
  },
  {
    question: "A user lost the phone with their 2FA app. How do they get back in?",
    answer:
      "They can sign in with one of the recovery codes they saved when they turned 2FA on. Without codes, a workspace admin can reset 2FA for them under Admin > Users. If they are the only admin, they need to contact support from the account email and we verify ownership before resetting.",
  },
  {
    question: "How long do refunds take to show up?",
    answer:
      "We issue refunds the same day. Card refunds usually appear in 5 to 10 business days depending on the bank; PayPal refunds are faster, typically within 2 days.",
  },
  {
    question: "Our webhook endpoint was down for an hour. Did we lose events?",
    answer:
      "No. Failed deliveries are retried with backoff for up to 24 hours, so events from that hour are still being delivered. The Webhooks page shows each attempt; 'Resend' delivers a single event again right away.",
  },
  {
    question: "How do I add a teammate to a workspace?",
    answer: "Settings > Members > Invite. Invites expire after 7 days. On Team and above you can pick the role (viewer, editor, admin) in the same dialog.",
  },
  {
    question: "Does Acme Cloud support SSO with Okta?",
    answer:
      "Yes, on the Business plan: SAML 2.0 with Okta, Azure AD and Google Workspace. Setup is under Admin > Security > Single sign-on; the metadata URL goes into Okta's app settings. SCIM provisioning is available too.",
  },
  {
    question: "A customer wants their account deleted. What is the process?",
    answer:
      "The account owner can delete it under Settings > Account > Delete account. Data is removed within 30 days and backups age out after 90. If they ask us to do it, we need the request from the account email.",
  },
  {
    question: "Is there an incident right now? Several customers report slow dashboards.",
    answer:
      "The status page shows degraded performance in eu-west since 14:05 UTC; engineering is on it. I would point customers to status.acme.example and let them subscribe for updates instead of promising a fix time.",
  },
  {
    question: "What is the difference between the Team and Business plans?",
    answer:
      "Team adds shared workspaces, roles and a 600 requests/minute API limit. Business adds SSO, audit logs, a 99.9% uptime SLA and priority support. Both are billed per seat, monthly or yearly.",
  },
  {
    question: "Can a customer change the billing currency?",
    answer: "Only at the start of a billing period. They pick the new currency under Billing > Payment method before the renewal date; the change applies from the next invoice.",
  },
  {
    question: "Someone asks whether we store data in the EU.",
    answer:
      "Workspaces created in the EU region keep their data in Frankfurt and Dublin. The region is chosen when the workspace is created; moving an existing workspace is a support request and takes about a day.",
  },
];

/** What one triage run found; the digest text is built from it. */
export function cronDigest(random: Random): string {
  const howTo = between(random, 0, 4);
  const billing = between(random, 0, 2);
  const bugs = between(random, 0, 1);
  const total = howTo + billing + bugs;
  if (total === 0) return "No new tickets since the last run.";
  const parts = [`${total} new ticket${total === 1 ? "" : "s"} since the last run.`];
  if (howTo) parts.push(`${howTo} how-to question${howTo === 1 ? "" : "s"} answered from the help center (${pick(random, ["CSV export", "password reset", "webhook retries", "invites"])}${howTo > 1 ? " and others" : ""}).`);
  if (billing) parts.push(`${billing} billing request${billing === 1 ? "" : "s"} tagged billing and routed to the billing queue.`);
  if (bugs) parts.push(`Needs a human: 1 possible bug report (${pick(random, ["dashboard loads slowly in eu-west", "CSV export times out for a large project", "invite email shows the wrong workspace name"])}), tagged bug and assigned to on-call.`);
  return parts.join(" ");
}

export const RESEARCH_TASK = "Research how our three main competitors handle refunds (window, pro-rating, exceptions) and summarise it in five bullets for the support team.";
export const RESEARCH_QUERY = "SaaS refund policy annual plan pro-rated refund window";
export const RESEARCH_RESULTS =
  "1. Competitor A help center: refunds within 14 days of purchase, annual plans pro-rated after that.\n2. Competitor B terms: 30-day money-back guarantee, no refunds afterwards.\n3. Competitor C billing FAQ: monthly plans not refunded, annual plans pro-rated on request.";
export const RESEARCH_SUMMARY =
  "- Windows range from 14 to 30 days; ours (14 days) is at the short end.\n- Two of three pro-rate annual plans after the window.\n- Monthly plans are rarely refunded.\n- Exceptions are handled by request, not self-serve.\n- Suggestion: mention pro-rating for annual plans in our refund macro.";
export const SPAWN_QUESTION = "Before I update the refund macro: how do other tools handle refunds? Please check.";
export const SPAWN_ANSWER = "Asked a sub-agent to research competitor refund policies; it reports back here.";
export const SPAWN_FOLLOW_UP =
  "Summary from the research: most competitors refund within 14 to 30 days and pro-rate annual plans afterwards. I suggest adding one line to the refund macro: 'Annual plans can be refunded pro rata after the first 14 days.'";

/** Output tokens for a reply of this text (about 4 characters a token, plus formatting). */
export function outputTokens(random: Random, text: string): number {
  return Math.round(text.length / 3.9) + between(random, 8, 40);
}

/**
 * Token counts of one run in a session whose system prompt is cached: a fresh session writes
 * the prompt to the cache, later turns read it and write only what the last turn added.
 */
export function turnTokens(random: Random, o: { firstInSession: boolean; priorTurns: number; answer: string }): TokenCounts {
  const history = o.priorTurns * between(random, 260, 420);
  return {
    input: between(random, 40, 160) + Math.round(o.answer.length / 20),
    output: outputTokens(random, o.answer),
    cacheRead: o.firstInSession ? 0 : 14_800 + history,
    cacheWrite: o.firstInSession ? 14_800 + between(random, 0, 600) : between(random, 250, 700),
  };
}

/** Gateway warnings that a busy real gateway logs now and then. */
export const WARNINGS: readonly { subsystem: string; text: string }[] = [
  { subsystem: "provider-transport-fetch", text: "[model-fetch] provider=anthropic model=claude-sonnet-4-5 status=529 overloaded_error; retrying in 2000ms (attempt 1/4)" },
  { subsystem: "provider-transport-fetch", text: "[model-fetch] provider=anthropic model=claude-sonnet-4-5 status=429 rate_limit_error; retrying in 4000ms (attempt 1/4)" },
  { subsystem: "session-sqlite", text: "slow SQLite session write" },
  { subsystem: "gateway/ws", text: "⇄ client closed without close frame conn=demo-dashboard code=1006" },
];

/** Errors are rarer; each one is something an operator would want to see. */
export const ERRORS: readonly { subsystem: string; text: string }[] = [
  { subsystem: "agent/embedded", text: "embedded run failed: provider=anthropic model=claude-sonnet-4-5 error=overloaded_error (529) after 4 attempts" },
  { subsystem: "gateway/hooks", text: "hook delivery failed: POST https://hooks.acme.example/support returned 502" },
];
