// The permissions of PRODUCT §4 on proposals and commitments, as one pure
// table: (state of a producer's negotiation on a need, viewer's side) →
// actions. It mirrors core/trade.Allowed in the daemon; both are tested
// against the same table, core/trade/testdata/actions.json.
import type { ProposalStatus, UserType } from '../types'

/** One party of a negotiation. */
export type Side = UserType

/** The verbs of the cards (PRODUCT §4). */
export const CARD_ACTIONS = ['accepter', 'modifier', 'refuser', 'supprimer', 'corriger'] as const
export type CardAction = (typeof CARD_ACTIONS)[number]

/** Where one producer's negotiation on one need stands. */
export interface TradeState {
  /** An accepted proposal (the commitment) exists. */
  committed: boolean
  /** Status of the open proposal, '' without one. */
  open: '' | Exclude<ProposalStatus, 'accepted'>
  /** Side that made the open proposal, '' without one. */
  from: Side | ''
}

/** What a viewer may do: make a first proposal, act on each card. */
export interface Actions {
  propose: boolean
  commitment: CardAction[]
  open: CardAction[]
}

/**
 * PRODUCT §4: an open proposal (proposed or rejected) gives its maker
 * modifier and supprimer, the other side accepter, modifier (a
 * counter-proposal) and refuser. A commitment offers corriger, except while
 * a correction is proposed, and after a correction was rejected to the side
 * that made it. The side that rejected a correction gets only corriger
 * (PRODUCT §4 "Proposals and commitments"), nothing on the card it
 * refused. With nothing yet, only the producer may propose.
 */
export function allowedActions(state: TradeState, viewer: Side): Actions {
  const actions: Actions = { propose: false, commitment: [], open: [] }
  const refusedCorrection = state.committed && state.open === 'rejected'
  if (state.open === 'proposed' || state.open === 'rejected') {
    if (viewer === state.from) actions.open = ['modifier', 'supprimer']
    else if (!refusedCorrection) actions.open = ['accepter', 'modifier', 'refuser']
  }
  if (state.committed && (state.open === '' || (state.open === 'rejected' && viewer !== state.from))) {
    actions.commitment = ['corriger']
  }
  if (!state.committed && state.open === '') actions.propose = viewer === 'producer'
  return actions
}

/** The side that made a proposal: `from`, absent meaning producer (PRODUCT §3). */
export function sideOf(proposal: { readonly from?: Side }): Side {
  return proposal.from ?? 'producer'
}

/** A proposal as the cards read it (plain objects or store snapshots). */
export interface ProposalLike {
  readonly _id: string
  readonly producer: string
  readonly status: ProposalStatus
  readonly from?: Side
  readonly quantity: number
  readonly price: number
  /** On a counter-proposal: the side whose proposal it replaced, and that proposal's values. */
  readonly previousFrom?: Side
  readonly previousQuantity?: number
  readonly previousPrice?: number
  /** The producer's own product it names (PRODUCT §3 "Producers' products"). */
  readonly suppliedProduct?: string
}

/**
 * The proposal a counter-proposal answers (issue 37): the other side's
 * values it replaced, as the server keeps them; undefined for a first
 * proposal or correction and for a commitment.
 */
export function answered(proposal: ProposalLike): { from: Side; quantity: number; price: number } | undefined {
  const { previousFrom: from, previousQuantity: quantity, previousPrice: price } = proposal
  if (proposal.status === 'accepted' || !from || from === sideOf(proposal)) return undefined
  if (quantity === undefined || price === undefined) return undefined
  return { from, quantity, price }
}

/** One producer's negotiation read from a need's proposals. */
export interface Negotiation<P extends ProposalLike = ProposalLike> {
  state: TradeState
  commitment?: P
  open?: P
}

export function negotiationOf<P extends ProposalLike>(proposals: readonly P[], producerId: string): Negotiation<P> {
  const out: Negotiation<P> = { state: { committed: false, open: '', from: '' } }
  for (const p of proposals) {
    if (p.producer !== producerId) continue
    if (p.status === 'accepted') {
      out.state.committed = true
      out.commitment = p
    } else {
      out.state.open = p.status
      out.state.from = sideOf(p)
      out.open = p
    }
  }
  return out
}

/** Button texts of the card actions. */
const LABELS: Record<CardAction, string> = {
  accepter: 'Accepter',
  modifier: 'Modifier',
  refuser: 'Refuser',
  supprimer: 'Supprimer',
  corriger: 'Corriger',
}

/** The label of a card action; an unknown action is an error (PRODUCT §4). */
export function actionLabel(action: string): string {
  if (!(CARD_ACTIONS as readonly string[]).includes(action)) throw new Error(`Unknown commitment action: ${action}`)
  return LABELS[action as CardAction]
}
