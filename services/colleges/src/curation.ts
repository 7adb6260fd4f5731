import {
  CollegeIngestedEvent,
  CollegeRemovedEvent,
  normaliseCollegeName,
  type CollegeRemovedEvent as CollegeRemovedPayload,
} from '@ct/contracts';
import { randomUUID } from 'node:crypto';
import { applyApprovedFact, HELD_FACT_LABELS, mergeGovernment } from '@ct/providers';
import { AppError } from '@ct/service-kit';
import type { Queryable } from '@ct/store';
import type { CollegesDeps } from './deps.ts';
import { ingestedEvent } from './events.ts';
import { COLLEGES_MSG, TRUST_MSG } from './messages.ts';
import type { StoredCollege } from './repositories/colleges.ts';

type Kind = 'shared' | 'review';

const reviewGone = (id: number) => new AppError('NOT_FOUND', COLLEGES_MSG.noReviewItem(id));
const collegeGone = (id: number) => new AppError('NOT_FOUND', COLLEGES_MSG.noCollegeWithId(id));

/**
 * The admin's decisions on colleges: approve a review item (share it), merge a college or a review item
 * into a shared college (its names keep finding the other, students' lists follow, official figures are
 * kept), delete either. Each decision is one transaction with its event in the outbox.
 */
export class Curation {
  constructor(
    private readonly deps: Pick<CollegesDeps, 'db' | 'colleges' | 'reviews' | 'requests' | 'held' | 'outbox'>,
  ) {}

  /** Shares a review item with everyone; 409 when a shared college has its name already. */
  async approve(id: number): Promise<{ name: string }> {
    const { colleges, reviews, requests } = this.deps;
    const name = await this.deps.db.transaction(async (tx) => {
      const item = await reviews.lock(id, tx);
      if (!item) throw reviewGone(id);
      const taken = await colleges.findCollege(item.document.name, tx);
      // Every name of it came from an AI answer: approved names, never above an official one.
      const saved = taken ? null : await colleges.insertCollege(item.document, true, tx, 'approved');
      if (!saved) {
        throw new AppError(
          'CONFLICT',
          COLLEGES_MSG.nameAlreadyShared(taken?.college.name ?? item.document.name, item.name),
        );
      }
      await requests.repoint([item.key], null, saved, tx);
      await reviews.delete(id, tx);
      const { payload, eventId } = ingestedEvent(saved.document);
      await this.deps.outbox.add(tx, CollegeIngestedEvent, payload, eventId);
      return saved.name;
    });
    void this.deps.outbox.kick();
    return { name };
  }

  /**
   * An admin's decision on a fact held for review: `approve` puts it into the college's shared record (a
   * name finds the college from then on, below official names; a fact group replaces the stored one and
   * is announced, so checklists and the essays grid follow); `drop` deletes it. One transaction.
   */
  async decideFact(
    id: number,
    decision: 'approve' | 'drop',
  ): Promise<{ collegeName: string; label: string }> {
    const { colleges, held } = this.deps;
    const result = await this.deps.db.transaction(async (tx) => {
      const fact = await held.lock(id, tx);
      if (!fact) throw new AppError('NOT_FOUND', TRUST_MSG.factGone(id));
      const college = await colleges.lockById(fact.collegeId, tx);
      if (!college) throw new AppError('NOT_FOUND', TRUST_MSG.factGone(id));
      await held.delete(id, tx);
      const label = HELD_FACT_LABELS[fact.kind];
      if (decision === 'drop') return { collegeName: college.name, label };
      if (fact.kind === 'aliases') {
        const names = Array.isArray(fact.value) ? fact.value.filter((v) => typeof v === 'string') : [];
        await colleges.addAliases(college.id, names as string[], tx);
      } else {
        const doc = applyApprovedFact(college.document, fact, new Date());
        if (doc) await colleges.saveDocument(college.id, doc, tx);
      }
      const saved = (await colleges.lockById(college.id, tx))!;
      const { payload, eventId } = ingestedEvent(saved.document);
      await this.deps.outbox.add(tx, CollegeIngestedEvent, payload, eventId);
      return { collegeName: college.name, label };
    });
    void this.deps.outbox.kick();
    return result;
  }

  /**
   * Merges a shared college or a review item into the shared college named `into`. The merged one's
   * names (and the names students typed for it) find the other from now on; students' list entries move
   * to it; when only the merged college had official figures, the other takes them.
   */
  async merge(kind: Kind, id: number, into: string): Promise<{ name: string; into: string }> {
    const { colleges, reviews, requests } = this.deps;
    const result = await this.deps.db.transaction(async (tx) => {
      const found = await colleges.findCollege(into, tx);
      if (!found) throw new AppError('NOT_FOUND', COLLEGES_MSG.noSharedCollegeNamed(into));
      let target = await colleges.lockById(found.id, tx);
      if (!target) throw new AppError('NOT_FOUND', COLLEGES_MSG.noSharedCollegeNamed(into));
      if (kind === 'review') {
        const item = await reviews.lock(id, tx);
        if (!item) throw reviewGone(id);
        const students = await reviews.viewers(id, tx);
        await requests.repoint([item.key], null, target, tx);
        await reviews.delete(id, tx);
        await this.announceRemoval(tx, item.name, target, students);
        return { name: item.name, into: target.name };
      }
      if (target.id === id) throw new AppError('VALIDATION_ERROR', COLLEGES_MSG.mergeIntoItself);
      const merged = await colleges.lockById(id, tx);
      if (!merged) throw collegeGone(id);
      await requests.repoint([normaliseCollegeName(merged.name)], merged.id, target, tx);
      await colleges.deleteCollege(merged.id, tx);
      await colleges.addAliases(target.id, [merged.name, ...merged.document.aliases], tx);
      if (target.document.scorecardId === null && merged.document.scorecardId !== null) {
        // Merges keep the official figures: the government data moves with the institution's id.
        await colleges.upsertColleges(
          [mergeGovernment((await colleges.lockById(target.id, tx))!.document, merged.document)],
          { mode: 'government' },
          tx,
        );
      }
      target = (await colleges.lockById(target.id, tx))!;
      await colleges.rememberRemovedInstitution(merged.document, 'merged', target.name, tx);
      await this.announceRemoval(tx, merged.name, target, null);
      const { payload, eventId } = ingestedEvent(target.document);
      await this.deps.outbox.add(tx, CollegeIngestedEvent, payload, eventId);
      return { name: merged.name, into: target.name };
    });
    void this.deps.outbox.kick();
    return result;
  }

  /**
   * Deletes a shared college or a review item. Students keep their checklists; the names that found it
   * are not gathered again on the next ask (the request shows why; an admin's retry clears that).
   */
  async delete(kind: Kind, id: number): Promise<{ name: string }> {
    const { colleges, reviews, requests } = this.deps;
    const name = await this.deps.db.transaction(async (tx) => {
      if (kind === 'review') {
        const item = await reviews.lock(id, tx);
        if (!item) throw reviewGone(id);
        await reviews.delete(id, tx);
        await requests.markRemovedByAdmin([item.key], null, TRUST_MSG.removedByAdmin, tx);
        // Nothing to announce: a review item never reached the essays grid or anyone else's list.
        return item.name;
      }
      const gone = await colleges.lockById(id, tx);
      if (!gone) throw collegeGone(id);
      await requests.markRemovedByAdmin(
        [normaliseCollegeName(gone.name)],
        gone.id,
        TRUST_MSG.removedByAdmin,
        tx,
      );
      await colleges.deleteCollege(id, tx);
      await colleges.rememberRemovedInstitution(gone.document, 'deleted', null, tx);
      await this.announceRemoval(tx, gone.name, null, null);
      return gone.name;
    });
    void this.deps.outbox.kick();
    return { name };
  }

  private async announceRemoval(
    tx: Queryable,
    name: string,
    into: StoredCollege | null,
    students: string[] | null,
  ): Promise<void> {
    const payload: CollegeRemovedPayload = {
      name,
      mergedInto: into ? { name: into.name, deadlines: into.document.info.deadlines } : null,
      students,
      removedAt: new Date().toISOString(),
    };
    // Fixed when written: a relay that publishes the row twice publishes one event.
    const eventId = `${normaliseCollegeName(name)}.removed.${randomUUID()}`;
    await this.deps.outbox.add(tx, CollegeRemovedEvent, payload, eventId);
  }
}
