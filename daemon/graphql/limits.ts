// Validation rules that bound what one document may ask for (design §5: depth 12, 30 aliases),
// run with graphql's own validation so an over-limit query is refused before any resolver runs.
import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext, type ValidationRule } from "graphql";

const MAX_DEPTH = 12;
const MAX_ALIASES = 30;

function limitError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT" } });
}

/** Fields nested deeper than `max` (fragments expanded; a fragment cycle is left to graphql's own rule). */
export function depthLimit(max = MAX_DEPTH): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of context.getDocument().definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);

    const depthOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!set) return 0;
      let deepest = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          // Introspection's own nesting (`__schema { types { fields { type { ofType ...`) is not user data.
          if (sel.name.value.startsWith("__")) continue;
          deepest = Math.max(deepest, 1 + depthOf(sel.selectionSet, seen));
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          deepest = Math.max(deepest, depthOf(sel.selectionSet, seen));
        } else {
          const name = sel.name.value;
          const frag = fragments.get(name);
          if (!frag || seen.has(name)) continue;
          deepest = Math.max(deepest, depthOf(frag.selectionSet, new Set([...seen, name])));
        }
        if (deepest > max) return deepest;
      }
      return deepest;
    };

    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > max) context.reportError(limitError(`the query is ${depth} levels deep; at most ${max} are allowed`));
      },
    };
  };
}

/** More than `max` aliased fields in the whole document (aliases multiply work cheaply). */
export function aliasLimit(max = MAX_ALIASES): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    let reported = false;
    return {
      Field(node) {
        if (!node.alias) return;
        aliases++;
        if (aliases > max && !reported) {
          reported = true;
          context.reportError(limitError(`the query uses more than ${max} aliases`));
        }
      },
    };
  };
}
