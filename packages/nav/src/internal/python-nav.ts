import type { SgNode } from '@ast-grep/napi';
import type { NavItem } from '../schema.js';

/** Parameters rendered like `(a, b=..., *args, kwonly, **kw)`: names only, defaults elided, annotations dropped. */
function signatureOf(fn: SgNode): string {
  const params = fn.field('parameters');
  if (!params) return '()';
  const parts: string[] = [];
  for (const p of params.namedChildren()) {
    const kind = String(p.kind());
    const name = p.field('name')?.text() ?? p.text();
    if (kind === 'identifier') parts.push(p.text());
    else if (kind === 'default_parameter' || kind === 'typed_default_parameter') parts.push(`${name}=...`);
    else if (kind === 'typed_parameter') {
      const inner = p.namedChildren()[0];
      const innerKind = inner ? String(inner.kind()) : '';
      const prefix = innerKind === 'list_splat_pattern' ? '*' : innerKind === 'dictionary_splat_pattern' ? '**' : '';
      parts.push(prefix ? `${prefix}${inner?.namedChildren()[0]?.text() ?? ''}` : (inner?.text() ?? p.text()));
    } else if (kind === 'list_splat_pattern') parts.push(`*${p.namedChildren()[0]?.text() ?? ''}`);
    else if (kind === 'dictionary_splat_pattern') parts.push(`**${p.namedChildren()[0]?.text() ?? ''}`);
    else if (kind === 'keyword_separator') parts.push('*');
    else if (kind === 'positional_separator') parts.push('/');
  }
  return `(${parts.join(', ')})`;
}

/** The class whose body directly holds this definition (through a decorator wrapper), if any. */
function enclosingClass(node: SgNode): SgNode | undefined {
  let parent = node.parent();
  if (parent && String(parent.kind()) === 'decorated_definition') parent = parent.parent();
  if (!parent || String(parent.kind()) !== 'block') return undefined;
  const owner = parent.parent();
  return owner && String(owner.kind()) === 'class_definition' ? owner : undefined;
}

function position(node: SgNode): { line: number; col: number } {
  const start = node.range().start;
  return { line: start.line + 1, col: start.column };
}

/** Classes, functions and methods (`Class.meth`) in source order. */
export function pythonOutline(root: SgNode): NavItem[] {
  const items: NavItem[] = [];
  for (const node of root.findAll({ rule: { any: [{ kind: 'class_definition' }, { kind: 'function_definition' }] } })) {
    const name = node.field('name')?.text() ?? '';
    const at = position(node);
    if (String(node.kind()) === 'class_definition') {
      items.push({ kind: 'class', name, ...at });
      continue;
    }
    const owner = enclosingClass(node);
    const ownerName = owner?.field('name')?.text();
    items.push({
      kind: owner ? 'method' : 'function',
      name: ownerName ? `${ownerName}.${name}` : name,
      ...at,
      signature: signatureOf(node),
    });
  }
  return items;
}

/** Classes, functions (methods included) and simple-name assignments that define `symbol`. */
export function pythonDefinitions(root: SgNode, symbol: string): NavItem[] {
  const items: NavItem[] = [];
  const rule = {
    rule: { any: [{ kind: 'class_definition' }, { kind: 'function_definition' }, { kind: 'assignment' }] },
  };
  for (const node of root.findAll(rule)) {
    const kind = String(node.kind());
    if (kind === 'assignment') {
      const left = node.field('left');
      if (left && String(left.kind()) === 'identifier' && left.text() === symbol) {
        items.push({ kind: 'assignment', name: symbol, ...position(node) });
      }
      continue;
    }
    if (node.field('name')?.text() !== symbol) continue;
    const item: NavItem = { kind: kind === 'class_definition' ? 'class' : 'function', name: symbol, ...position(node) };
    if (kind === 'function_definition') item.signature = signatureOf(node);
    items.push(item);
  }
  return items;
}

const DECLARING_PARENTS = new Set(['function_definition', 'class_definition', 'keyword_argument', 'default_parameter']);
const PARAMETER_KINDS = new Set(['parameters', 'typed_parameter', 'list_splat_pattern', 'dictionary_splat_pattern']);

/** Every name or attribute occurrence of `symbol` (syntactic: no scope or import resolution). */
export function pythonReferences(root: SgNode, symbol: string, lines: readonly string[], maxChars: number): NavItem[] {
  const items: NavItem[] = [];
  for (const node of root.findAll({
    rule: { kind: 'identifier', regex: `^${symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` },
  })) {
    const parent = node.parent();
    const parentKind = parent ? String(parent.kind()) : '';
    if (DECLARING_PARENTS.has(parentKind) && parent?.field('name')?.id() === node.id()) continue;
    if (PARAMETER_KINDS.has(parentKind)) continue;
    if (parentKind === 'dotted_name' || parentKind === 'aliased_import') continue;
    const isAttribute = parentKind === 'attribute' && parent?.field('attribute')?.id() === node.id();
    const at = position(node);
    const context = (lines[at.line - 1] ?? '').trim().slice(0, maxChars);
    items.push({ kind: isAttribute ? 'attribute' : 'reference', name: symbol, ...at, signature: context });
  }
  return items;
}

/** The first syntax error of a tree as "line N", or undefined when the file parsed cleanly. */
export function pythonSyntaxError(root: SgNode): string | undefined {
  const error = root.find({ rule: { kind: 'ERROR' } });
  if (error) return `syntax error at line ${error.range().start.line + 1}`;
  // The parser also repairs some errors by inserting an empty "missing" token; find the first one.
  const stack: SgNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { start, end } = node.range();
    if (node !== root && node.isLeaf() && start.index === end.index) {
      return `syntax error at line ${start.line + 1} (a ${JSON.stringify(String(node.kind()))} is missing)`;
    }
    stack.push(...node.children().reverse());
  }
  return undefined;
}
