// The sub-agent tree, built from each session's parentKey: any depth, stable under sorting and
// filtering. A match deep in the tree keeps its ancestors visible so it is shown in context.
// Session keys are unique within a source only ("All providers" lists several), so a node is
// known by its source and key together (uidOf).
import type { SourcedSession as Session } from "../../api/types";

/** A session's id across sources. */
export const uidOf = (s: Pick<Session, "source" | "key">): string => `${s.source}\u0000${s.key}`;

export interface TreeNode {
  session: Session;
  children: TreeNode[];
}

export interface VisibleRow {
  session: Session;
  depth: number;
  hasChildren: boolean;
  /** Shown only because a descendant matches the filter. */
  contextOnly: boolean;
}

export function buildTree(list: readonly Session[]): TreeNode[] {
  const nodes = new Map<string, TreeNode>(list.map((s) => [uidOf(s), { session: s, children: [] }]));
  const roots: TreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.session.parentKey ? nodes.get(uidOf({ source: node.session.source, key: node.session.parentKey })) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  // A parentKey cycle would leave its members unreachable from any root: adopt them as roots.
  const seen = new Set<TreeNode>();
  const mark = (n: TreeNode): void => {
    if (seen.has(n)) return;
    seen.add(n);
    n.children.forEach(mark);
  };
  roots.forEach(mark);
  for (const node of nodes.values()) {
    if (!seen.has(node)) {
      roots.push(node);
      mark(node);
    }
  }
  return roots;
}

export function sortTree(nodes: TreeNode[], compare: (a: Session, b: Session) => number): TreeNode[] {
  return [...nodes].sort((a, b) => compare(a.session, b.session)).map((n) => ({ ...n, children: sortTree(n.children, compare) }));
}

/** Depth-first rows for display: filtered, with collapsed branches (by uidOf) left out. */
export function visibleRows(roots: TreeNode[], matches: (s: Session) => boolean, collapsed: ReadonlySet<string>): VisibleRow[] {
  const out: VisibleRow[] = [];
  const onPath = new Set<TreeNode>();
  const anyMatch = (n: TreeNode): boolean => {
    if (onPath.has(n)) return false;
    onPath.add(n);
    const r = matches(n.session) || n.children.some(anyMatch);
    onPath.delete(n);
    return r;
  };
  const walk = (n: TreeNode, depth: number): void => {
    if (depth > 64 || !anyMatch(n)) return;
    out.push({ session: n.session, depth, hasChildren: n.children.length > 0, contextOnly: !matches(n.session) });
    if (!collapsed.has(uidOf(n.session))) for (const c of n.children) walk(c, depth + 1);
  };
  roots.forEach((r) => walk(r, 0));
  return out;
}

export function countAll(roots: TreeNode[]): number {
  return roots.reduce((n, r) => n + 1 + countAll(r.children), 0);
}
