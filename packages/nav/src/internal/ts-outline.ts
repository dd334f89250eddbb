import type { ts as TsNs } from '@ts-morph/common';
import type { NavItem } from '../schema.js';

type TS = typeof TsNs;

function params(t: TS, node: TsNs.SignatureDeclarationBase, source: TsNs.SourceFile, max: number): string {
  const text = `(${node.parameters.map((p) => p.getText(source)).join(', ')})`;
  const returns = node.type ? `: ${node.type.getText(source)}` : '';
  const full = `${text}${returns}`.replace(/\s+/g, ' ');
  void t;
  return full.length > max ? `${full.slice(0, max - 1)}…` : full;
}

/** Classes, interfaces, types, enums, functions, methods (`Class.meth`) and top-level variables of one parsed file. */
export function tsOutline(t: TS, source: TsNs.SourceFile, maxChars: number): NavItem[] {
  const items: NavItem[] = [];
  const at = (node: TsNs.Node) => {
    const pos = source.getLineAndCharacterOfPosition(node.getStart(source));
    return { line: pos.line + 1, col: pos.character };
  };
  const visit = (node: TsNs.Node, owner: string | undefined, topLevel: boolean): void => {
    if (t.isClassDeclaration(node) || t.isClassExpression(node)) {
      const name = node.name?.text ?? 'default';
      items.push({ kind: 'class', name, ...at(node) });
      for (const member of node.members) visit(member, name, false);
      return;
    }
    if (t.isInterfaceDeclaration(node)) items.push({ kind: 'interface', name: node.name.text, ...at(node) });
    else if (t.isTypeAliasDeclaration(node)) items.push({ kind: 'type', name: node.name.text, ...at(node) });
    else if (t.isEnumDeclaration(node)) items.push({ kind: 'enum', name: node.name.text, ...at(node) });
    else if (t.isFunctionDeclaration(node)) {
      const name = node.name?.text ?? 'default';
      items.push({ kind: 'function', name, ...at(node), signature: params(t, node, source, maxChars) });
    } else if ((t.isMethodDeclaration(node) || t.isConstructorDeclaration(node)) && owner) {
      const name = t.isConstructorDeclaration(node) ? 'constructor' : node.name.getText(source);
      items.push({
        kind: 'method',
        name: `${owner}.${name}`,
        ...at(node),
        signature: params(t, node, source, maxChars),
      });
      return;
    } else if (t.isVariableStatement(node) && topLevel) {
      for (const decl of node.declarationList.declarations) {
        if (!t.isIdentifier(decl.name)) continue;
        const init = decl.initializer;
        const fn = init && (t.isArrowFunction(init) || t.isFunctionExpression(init)) ? init : undefined;
        if (fn) {
          items.push({
            kind: 'function',
            name: decl.name.text,
            ...at(decl),
            signature: params(t, fn, source, maxChars),
          });
        } else {
          items.push({ kind: 'variable', name: decl.name.text, ...at(decl) });
          if (init && t.isClassExpression(init)) visit(init, undefined, false);
        }
      }
      return;
    } else if (t.isModuleDeclaration(node) && node.body && t.isModuleBlock(node.body)) {
      items.push({ kind: 'namespace', name: node.name.getText(source), ...at(node) });
      for (const statement of node.body.statements) visit(statement, undefined, true);
      return;
    }
    if (t.isFunctionLike(node) || t.isBlock(node) || t.isSourceFile(node)) {
      t.forEachChild(node, (child) => visit(child, undefined, t.isSourceFile(node)));
    } else if (t.isExportAssignment(node)) visit(node.expression, undefined, false);
  };
  visit(source, undefined, true);
  return items;
}

/** The first syntax error of a parsed file as "line N: message", if any. */
export function tsSyntaxError(t: TS, source: TsNs.SourceFile): string | undefined {
  const diagnostics = (source as unknown as { parseDiagnostics?: TsNs.Diagnostic[] }).parseDiagnostics ?? [];
  const first = diagnostics[0];
  if (!first || first.start === undefined) return undefined;
  const line = source.getLineAndCharacterOfPosition(first.start).line + 1;
  return `line ${line}: ${t.flattenDiagnosticMessageText(first.messageText, ' ')}`;
}
