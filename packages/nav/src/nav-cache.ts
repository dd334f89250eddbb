import type { ts as TsNs } from '@ts-morph/common';
import { TreeSnapshot } from './internal/tree-snapshot.js';
import { TsProject } from './internal/ts-project.js';
import type { StandardLibrary } from './internal/ts-service-host.js';

type TS = typeof TsNs;

/** Warm TypeScript projects and directory listings keyed by workspace root; owned by one tool instance, never global. */
export class NavCache {
  readonly #projects = new Map<string, TsProject>();
  readonly #trees = new Map<string, TreeSnapshot>();

  /** The remembered listing of a directory (an absolute path inside the workspace), created on first use. */
  tree(root: string, dir: string): TreeSnapshot {
    const key = `${root}\0${dir}`;
    let tree = this.#trees.get(key);
    if (!tree) {
      tree = new TreeSnapshot(dir);
      this.#trees.set(key, tree);
    }
    return tree;
  }

  /** The project for a root, created on first use (with the compiler's standard library, asked for only then). */
  project(t: TS, root: string, library: () => StandardLibrary): TsProject {
    let project = this.#projects.get(root);
    if (!project) {
      project = new TsProject(t, root, library());
      this.#projects.set(root, project);
    }
    return project;
  }

  /** Disposes every project (their language services and parsed files) and forgets every listing. */
  dispose(): void {
    for (const project of this.#projects.values()) project.dispose();
    this.#projects.clear();
    this.#trees.clear();
  }
}
