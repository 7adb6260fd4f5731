import {
  createShareLink,
  DEFAULT_SHARE_SCOPE,
  getSharedView,
  getShareLinks,
  revokeShareLink,
  LIMITS,
  SHARE_SCOPES,
  sharedCalendarIcs,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../deps.ts';
import { deadlinesToIcs } from '../ics.ts';
import { UD_MSG } from '../messages.ts';
import { presentShareLink } from '../presenters.ts';
import type { ShareView } from '../repositories/share-links.ts';
import { shareableDeadline } from '../share/next-deadlines.ts';
import { buildSharedView, sharedPagePath } from '../share/shared-view.ts';
import { studentDeadlines } from '../deadlines/next-deadlines.ts';

/** Nothing a share link answers may be kept by a cache or indexed by a search engine. */
function privateReply(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex, nofollow')
    .header('referrer-policy', 'no-referrer');
}

/**
 * Read-only share links for a parent or counselor (issue 33): the student creates, lists and revokes
 * them; whoever holds one sees what its scope names, read only, and may subscribe to its calendar.
 */
export function shareRoutes(deps: Deps): Implementation[] {
  const { shareLinks } = deps;

  /** The live link a token opens, counted as a view: 404 when there is none, 429 past the minute's limit. */
  async function open(token: string, reply: FastifyReply): Promise<ShareView> {
    privateReply(reply);
    const view = await shareLinks.openLink(token, LIMITS.share.viewsPerMinute);
    if (!view) throw new AppError('NOT_FOUND', UD_MSG.sharedLinkGone);
    if (!view.allowed) {
      reply.header('retry-after', String(view.retryAfterS));
      throw new AppError('RATE_LIMITED', UD_MSG.sharedTooManyViews(view.retryAfterS));
    }
    return view;
  }

  return [
    implement(createShareLink, async (request) => {
      const uid = requireUser(request);
      const { label, expiresInDays } = request.body;
      // Kept in the order of the scope list whatever order they came in, so links read alike.
      const asked = request.body.scope ?? DEFAULT_SHARE_SCOPE;
      const scope = SHARE_SCOPES.filter((s) => asked.includes(s));
      const made = await shareLinks.createLink(
        uid,
        {
          label: label.trim(),
          scope,
          displayName: request.auth?.name?.trim() || UD_MSG.sharedByUnnamed,
          // The e-mail is copied only when the student chose to show it.
          email: scope.includes('email') ? (request.auth?.email ?? null) : null,
          days: expiresInDays ?? LIMITS.share.defaultDays,
        },
        LIMITS.share.linksPerStudent,
      );
      if (made === 'full') throw new AppError('LIMIT_REACHED', UD_MSG.tooManyShareLinks);
      const { row, token } = made;
      return {
        success: true,
        message: UD_MSG.shareLinkCreated,
        data: {
          id: row.id,
          path: sharedPagePath(token),
          label: row.label,
          scope: row.scope,
          expiresAt: row.expires_at.toISOString(),
          createdAt: row.created_at.toISOString(),
        },
      };
    }),

    implement(getShareLinks, async (request) => {
      const uid = requireUser(request);
      const links = await shareLinks.listLinks(uid);
      return { success: true, message: UD_MSG.shareLinksFound, data: links.map(presentShareLink) };
    }),

    implement(revokeShareLink, async (request) => {
      const uid = requireUser(request);
      // Only the student's own link can match: another student's id is "no such link" to them.
      if (!(await shareLinks.revokeLink(uid, request.body.id)))
        throw new AppError('NOT_FOUND', UD_MSG.shareLinkNotFound);
      const links = await shareLinks.listLinks(uid);
      return { success: true, message: UD_MSG.shareLinkRevoked, data: links.map(presentShareLink) };
    }),

    implement(getSharedView, async (request, reply) => {
      const { token } = request.params;
      const { link } = await open(token, reply);
      return {
        success: true,
        message: UD_MSG.sharedViewFound,
        data: await buildSharedView(deps, link, token),
      };
    }),

    implement(sharedCalendarIcs, async (request, reply) => {
      const { link } = await open(request.params.token, reply);
      if (!link.scope.includes('calendar')) throw new AppError('NOT_FOUND', UD_MSG.sharedLinkGone);
      const now = deps.now();
      const all = await studentDeadlines(deps, link.user_id, now);
      // The colleges' dates, and the season's only when the link shows the status (`shareableDeadline`).
      const shared = { ...all, items: all.items.filter((d) => shareableDeadline(d, link.scope)) };
      return reply
        .header('content-disposition', 'inline; filename="deadlines.ics"')
        .type('text/calendar; charset=utf-8')
        .send(deadlinesToIcs(shared, now, 'Shared college deadlines'));
    }),
  ];
}
