// Parsed and validated documents kept by query text for the transports Apollo does not serve
// (graphql-sse, graphql-ws). Apollo keeps its own (its default document store). Clients send the
// same few operations again and again; a document and its validation depend only on the text and
// the one schema, so both are done once. Bounded by entries and by text length: query texts are
// the client's choice.
import { parse, validate, type DocumentNode, type GraphQLError, type GraphQLSchema, type ValidationRule } from "graphql";

interface DocumentCacheLimits {
  entries: number;
  /** Sum of the kept query texts' lengths. */
  chars: number;
}

const DEFAULT_DOCUMENT_LIMITS: DocumentCacheLimits = { entries: 500, chars: 2_000_000 };

export class DocumentCache {
  private readonly docs = new Map<string, DocumentNode>();
  private chars = 0;
  private readonly verdicts = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  /** Counters for tests. */
  readonly stats = { parsed: 0, validated: 0 };

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly rules: readonly ValidationRule[],
    private readonly limits: DocumentCacheLimits = DEFAULT_DOCUMENT_LIMITS,
  ) {}

  /** graphql's `parse`, once per text; a syntax error is thrown as graphql throws it, and not kept. */
  parse(query: string): DocumentNode {
    const hit = this.docs.get(query);
    if (hit) {
      // Most recently used last.
      this.docs.delete(query);
      this.docs.set(query, hit);
      return hit;
    }
    this.stats.parsed++;
    const doc = parse(query);
    if (query.length > this.limits.chars) return doc;
    this.docs.set(query, doc);
    this.chars += query.length;
    for (const [text] of this.docs) {
      if (this.docs.size <= this.limits.entries && this.chars <= this.limits.chars) break;
      this.docs.delete(text);
      this.chars -= text.length;
    }
    return doc;
  }

  /** graphql's `validate` with our rules, once per document (documents are never changed once parsed). */
  validate(schema: GraphQLSchema, document: DocumentNode): GraphQLError[] {
    if (schema !== this.schema) return [...validate(schema, document, this.rules)];
    let errors = this.verdicts.get(document);
    if (!errors) {
      this.stats.validated++;
      errors = validate(schema, document, this.rules);
      this.verdicts.set(document, errors);
    }
    return [...errors];
  }
}
