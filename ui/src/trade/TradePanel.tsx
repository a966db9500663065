import { Anchor, Stack, Text, Title } from '@mantine/core'
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import { dayOf } from '../format'
import { paths } from '../routing'
import { loadMine, useSupplied } from '../store/supplied'
import { propose, review, withdraw } from '../store/trade'
import { NearbyProducers } from '../supplied/NearbyProducers'
import { OffersForNeed } from '../supplied/Offers'
import { SuppliedProductLine } from '../supplied/SuppliedProductLine'
import type { Unit } from '../types'
import { useUser } from '../store/hooks'
import { type CardAction, type ProposalLike, type Side, allowedActions, answered, negotiationOf } from './actions'
import { withinRole } from './roleActions'
import { CommitmentCard } from './CommitmentCard'
import { OtherProducersCard, type OtherProducersNeed } from './OtherProducersCard'
import { ProposalForm } from './ProposalForm'
import { remainingFor } from './proposalForm'
import { de } from '../grammar'

/** A need as the panel reads it (plain objects or store snapshots). */
export interface TradeNeed extends OtherProducersNeed {
  readonly _id: string
  /** The month, "2026-12-01". */
  readonly date: string
  readonly proposals: readonly ProposalLike[]
  /** The need's product type: a producer proposes its own products of it. */
  readonly product?: string
}

/** Whether a need's month ("2026-10-01") is over in Paris: its negotiations are closed. */
export function isClosedMonth(month: string, now: Date = new Date()): boolean {
  return month.slice(0, 7) < dayOf(now).slice(0, 7)
}

/** Which card the form works on: a first proposal, the open proposal, or the commitment. */
interface Editing {
  producer: string
  card: 'new' | 'open' | 'commitment'
}

export interface TradePanelProps {
  need: TradeNeed
  unit: Unit
  viewer: { type: Side; id: string }
  /** Producers by id, for the shop's cards. */
  producers: readonly { readonly _id: string; readonly name: string }[]
  /** Under the proposal form's fields: the need's price information (planner/PriceInfo, compact). */
  priceHint?: ReactNode
  /**
   * Told whether a proposal form is shown: the pane then leaves out its own
   * price section, the form's line carrying the same figures (one price
   * truth shown once, issue 37).
   */
  onFormShown?: (shown: boolean) => void
  /** For a shop, under the name of a producer whose proposal it may accept: what it asks per delivery (trade/DeliveryTermsNote). */
  producerNote?: (producerId: string) => ReactNode
}

/**
 * The trade blocks of the planner's right pane (PRODUCT §2, §4, §5): the
 * commitment and proposal cards with exactly the actions of the PRODUCT §4
 * table, the proposal form, and for a producer the "autres producteurs"
 * card. A producer sees its own negotiation; a shop sees one per producer.
 */
export function TradePanel({ need, unit, viewer, producers, priceHint, onFormShown, producerNote }: TradePanelProps) {
  const [editing, setEditing] = useState<Editing | null>(null)
  const [busy, setBusy] = useState(false)
  const side = viewer.type
  const closed = isClosedMonth(need.date)
  // A member sees only the actions their role may take (issue 41).
  const role = useUser()?.role
  // A producer's own products of the need's type, for its proposal form.
  const supplied = useSupplied()
  useEffect(() => {
    if (side === 'producer' && !supplied.loaded && supplied.status === 'idle') void loadMine()
  }, [side, supplied.loaded, supplied.status])
  const ownProducts = side === 'producer' ? supplied.mine.filter((p) => p.productType === need.product) : []
  const productOf = (producer: string, p: ProposalLike | undefined) =>
    p?.suppliedProduct ? <SuppliedProductLine producerId={producer} productId={p.suppliedProduct} /> : undefined

  const producerIds = side === 'producer' ? [viewer.id] : [...new Set(need.proposals.map((p) => p.producer))]
  const nameOf = (id: string) => producers.find((p) => p._id === id)?.name ?? 'Producteur'
  // After a proposal is sent or a card's action done, the form or the button
  // that had the focus is gone: the focus goes to the negotiation, which now
  // shows the outcome (WCAG 2.4.3), instead of the page's body.
  const groups = useRef(new Map<string, HTMLDivElement>())
  const focusNegotiation = (producer: string) =>
    window.setTimeout(() => {
      const group = groups.current.get(producer)
      if (group && !group.contains(document.activeElement)) group.focus()
    }, 0)

  const act = async (producer: string, action: CardAction) => {
    switch (action) {
      case 'modifier':
        setEditing({ producer, card: 'open' })
        return
      case 'corriger':
        setEditing({ producer, card: 'commitment' })
        return
      case 'accepter':
      case 'refuser':
      case 'supprimer': {
        setBusy(true)
        const result =
          action === 'supprimer'
            ? await withdraw(need._id, producer)
            : await review(need._id, producer, action === 'accepter')
        setBusy(false)
        if (result.ok) {
          setEditing(null)
          focusNegotiation(producer)
        }
        return
      }
      default:
        throw new Error(`Unknown commitment action: ${String(action)}`)
    }
  }

  let formShown = false
  const sections = producerIds.map((producer) => {
    const n = negotiationOf(need.proposals, producer)
    const allowed = closed
      ? { propose: false, commitment: [], open: [] }
      : withinRole(allowedActions(n.state, side), role)
    const mine = side === 'producer'
    const edit = editing?.producer === producer ? editing : allowed.propose ? { producer, card: 'new' as const } : null
    if (edit) formShown = true
    const base = edit?.card === 'open' ? n.open : edit?.card === 'commitment' ? n.commitment : undefined
    const title =
      edit?.card === 'commitment'
        ? "Corriger l'engagement"
        : edit?.card === 'open'
          ? n.open && n.state.from === side
            ? 'Modifier la proposition'
            : n.state.committed
              ? 'Contre-proposer une correction'
              : 'Contre-proposer'
          : 'Proposer'
    const who = mine ? '' : ` ${de(nameOf(producer))}`
    // A proposal made over the other side's is named so (issue 37), and
    // its card shows what it answers.
    const counter = n.open ? answered(n.open) !== undefined : false
    const openTitle = n.state.committed
      ? counter
        ? 'Contre-proposition de correction'
        : 'Correction'
      : counter
        ? 'Contre-proposition'
        : 'Proposition'

    return (
      <Stack
        key={producer}
        gap="xs"
        aria-label={mine ? 'Ma négociation' : `Négociation avec ${nameOf(producer)}`}
        role="group"
        tabIndex={-1}
        ref={(el: HTMLDivElement | null) => {
          if (el) groups.current.set(producer, el)
          else groups.current.delete(producer)
        }}
      >
        {!mine ? (
          <Title order={5}>
            {/* The producer's page: its products, photos and labels. */}
            <Anchor component={Link} href={paths.disProducer(producer)} inherit>
              {nameOf(producer)}
            </Anchor>
          </Title>
        ) : null}
        {!mine && allowed.open.includes('accepter') ? producerNote?.(producer) : null}
        {n.commitment ? (
          <CommitmentCard
            title="Engagement"
            label={`Engagement${who}`}
            proposal={n.commitment}
            product={productOf(producer, n.commitment)}
            unit={unit}
            viewer={side}
            actions={allowed.commitment}
            selected={edit?.card === 'commitment'}
            waiting={n.state.open === 'proposed'}
            busy={busy}
            onAction={(a) => act(producer, a)}
          />
        ) : null}
        {n.open ? (
          <CommitmentCard
            title={openTitle}
            label={`${openTitle}${who}`}
            proposal={n.open}
            product={productOf(producer, n.open)}
            unit={unit}
            viewer={side}
            actions={allowed.open}
            selected={edit?.card === 'open'}
            busy={busy}
            onAction={(a) => act(producer, a)}
          />
        ) : null}
        {edit ? (
          <ProposalForm
            key={`${need._id}|${producer}|${edit.card}|${base?._id ?? ''}`}
            title={title}
            unit={unit}
            max={remainingFor(need, producer)}
            zeroAllowed={n.state.committed}
            initial={base ? { quantity: base.quantity, price: base.price } : undefined}
            submitLabel={edit.card === 'new' ? 'Proposer' : 'Envoyer'}
            hint={priceHint}
            products={mine ? ownProducts : undefined}
            initialProduct={base?.suppliedProduct}
            onCancel={edit.card === 'new' ? undefined : () => setEditing(null)}
            onSubmit={async (offer) => {
              const result = await propose(need._id, producer, offer, edit.card === 'new' ? 'create' : 'modify')
              if (result.ok) {
                setEditing(null)
                focusNegotiation(producer)
                return { ok: true }
              }
              return { ok: false, fieldErrors: result.fieldErrors }
            }}
          />
        ) : null}
      </Stack>
    )
  })

  useLayoutEffect(() => onFormShown?.(formShown), [formShown, onFormShown])

  return (
    <Stack gap="sm" aria-label="Propositions et engagements" role="region">
      {closed ? <Text c="dimmed">Ce mois est passé : les propositions sont closes.</Text> : null}
      {side === 'distributor' && producerIds.length === 0 ? (
        <Text c="dimmed">Aucune proposition de producteur pour ce besoin</Text>
      ) : null}
      {sections}
      {side === 'producer' ? <OtherProducersCard need={need} producerId={viewer.id} unit={unit} /> : null}
      {side === 'distributor' && need.product && !closed ? (
        <OffersForNeed productType={need.product} month={need.date} />
      ) : null}
      {side === 'distributor' && need.product ? <NearbyProducers productType={need.product} /> : null}
    </Stack>
  )
}
