// What a member's role leaves of a negotiation's actions (issue 41,
// PRODUCT §13 "Teams"): each card action calls one operation of the
// daemon, whose roles are the one table daemon/testdata/roles.json
// (team/roles.ts); a role that may not call it sees no button for it.
import { type OperationId, type Role, may } from '../team/roles'
import type { Actions, CardAction } from './actions'

/** The daemon's operation behind each card action, and behind a first proposal. */
export const ACTION_OPERATIONS: Record<CardAction | 'proposer', OperationId> = {
  proposer: 'put-proposal',
  modifier: 'put-proposal',
  corriger: 'put-proposal',
  accepter: 'review-proposal',
  refuser: 'review-proposal',
  supprimer: 'delete-proposal',
}

/** The actions of `actions` that a member of `role` may take. */
export function withinRole(actions: Actions, role: Role | undefined): Actions {
  const allowed = (a: CardAction) => may(role, ACTION_OPERATIONS[a])
  return {
    propose: actions.propose && may(role, ACTION_OPERATIONS.proposer),
    commitment: actions.commitment.filter(allowed),
    open: actions.open.filter(allowed),
  }
}
