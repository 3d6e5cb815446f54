import type { MediaKind } from '@diagrodl/contracts';

/** One folder of a user's files, of one media kind. */
export interface UserFolder {
  kind: MediaKind;
  /** Absolute path of the folder (it may not exist). */
  dir: string;
}

/**
 * What a module keeps of a user outside the database rows, and its work in progress, for "Mis
 * datos": the accounts module exports a user's files and deletes a whole account through these
 * parts, which the modules that keep files or run work register at start (the diagnosis module:
 * its media folders and its identification runner). Modules never import one another; the
 * platform carries this registry between them.
 */
export interface UserDataPart {
  /** The user's folders of files. */
  folders(userId: number): UserFolder[];
  /**
   * Stops this process's work on the user's data (a running identification ends after the
   * photos it is writing) and keeps new work off until the returned release is called.
   */
  hold(userId: number): Promise<() => void>;
}

export class UserDataParts {
  private readonly parts: UserDataPart[] = [];

  add(part: UserDataPart): void {
    this.parts.push(part);
  }

  folders(userId: number): UserFolder[] {
    return this.parts.flatMap((p) => p.folders(userId));
  }

  /** Holds every part's work on the user; resolves once it stopped, with one release for all. */
  async hold(userId: number): Promise<() => void> {
    const releases: (() => void)[] = [];
    try {
      for (const part of this.parts) releases.push(await part.hold(userId));
    } catch (err) {
      for (const release of releases) release();
      throw err;
    }
    return () => {
      for (const release of releases) release();
    };
  }
}
