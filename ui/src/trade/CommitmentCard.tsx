import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core'
import type { ReactNode } from 'react'
import { formatEUR, formatQuantity } from '../format'
import type { ProposalStatus, Unit } from '../types'
import { type CardAction, type ProposalLike, type Side, actionLabel, answered, sideOf } from './actions'

/** How a card looks (PRODUCT §4: accepted, rejected, proposed, selected, own, waiting). */
export interface CardStyle {
  status: ProposalStatus
  /** The card the form is working on. */
  selected: boolean
  /** The viewer's side made it. */
  own: boolean
  /** It waits on another card: a commitment with a correction pending. */
  waiting: boolean
}

export function cardStyle(
  proposal: ProposalLike,
  viewer: Side,
  flags: { selected?: boolean; waiting?: boolean } = {},
): CardStyle {
  return {
    status: proposal.status,
    selected: !!flags.selected,
    own: proposal.status !== 'accepted' && sideOf(proposal) === viewer,
    waiting: !!flags.waiting,
  }
}

/** The card's class names: "trade-card trade-card--proposed trade-card--own". */
export function cardClassName(style: CardStyle): string {
  const names = ['trade-card', `trade-card--${style.status}`]
  if (style.selected) names.push('trade-card--selected')
  if (style.own) names.push('trade-card--own')
  if (style.waiting) names.push('trade-card--waiting')
  return names.join(' ')
}

const COLORS: Record<ProposalStatus, string> = { accepted: 'green', proposed: 'orange', rejected: 'red' }

const STATUS_LABELS: Record<ProposalStatus, string> = {
  accepted: 'Engagé',
  proposed: 'En attente',
  rejected: 'Refusée',
}

/** Who made a proposal, as the viewer reads it. */
export function makerLabel(proposal: ProposalLike, viewer: Side): string {
  return sideLabel(sideOf(proposal), viewer)
}

function sideLabel(side: Side, viewer: Side): string {
  if (side === viewer) return 'par vous'
  return side === 'producer' ? 'par le producteur' : 'par le magasin'
}

export interface CommitmentCardProps {
  /** Heading: "Engagement", "Proposition", "Correction", "Contre-proposition"… */
  title: string
  /** Accessible name, when the heading alone is ambiguous ("Proposition de Ferme X"); the title otherwise. */
  label?: string
  proposal: ProposalLike
  unit: Unit
  viewer: Side
  /** Exactly the actions of the PRODUCT §4 table; an unknown one throws. */
  actions: readonly string[]
  selected?: boolean
  waiting?: boolean
  busy?: boolean
  /** Under the quantity: the producer's own product it names (supplied/SuppliedProductLine). */
  product?: ReactNode
  onAction: (action: CardAction) => void
}

/** A commitment or an open proposal, with the actions the viewer may take. */
export function CommitmentCard({
  title,
  label,
  proposal,
  unit,
  viewer,
  actions,
  selected,
  waiting,
  busy,
  product,
  onAction,
}: CommitmentCardProps) {
  const style = cardStyle(proposal, viewer, { selected, waiting })
  const buttons = actions.map((a) => ({ action: a as CardAction, label: actionLabel(a) }))
  const color = COLORS[style.status]
  const previous = answered(proposal)
  return (
    <Paper
      role="article"
      aria-label={label ?? title}
      className={cardClassName(style)}
      data-status={style.status}
      data-own={style.own || undefined}
      data-selected={style.selected || undefined}
      data-waiting={style.waiting || undefined}
      withBorder
      p="sm"
      bg={style.own ? `var(--mantine-color-${color}-0)` : undefined}
      style={{
        borderColor: `var(--mantine-color-${style.selected ? 'blue' : color}-6)`,
        borderWidth: style.selected ? 2 : 1,
        borderStyle: style.waiting ? 'dashed' : 'solid',
        opacity: style.waiting ? 0.75 : 1,
      }}
    >
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600}>{title}</Text>
          <Badge color={color} variant="light" style={{ flexShrink: 0, overflow: 'visible' }}>
            {STATUS_LABELS[style.status]}
          </Badge>
        </Group>
        <Text>
          {formatQuantity(proposal.quantity, unit)} à {formatEUR(proposal.price)}/{unit}
        </Text>
        {product}
        <Text size="sm" c="dimmed">
          {proposal.status === 'accepted' ? 'Proposée' : proposal.status === 'rejected' ? 'Faite' : 'Envoyée'}{' '}
          {makerLabel(proposal, viewer)}
          {style.waiting ? ' · correction en attente' : ''}
        </Text>
        {previous ? (
          <Text size="sm" c="dimmed">
            Au lieu de {formatQuantity(previous.quantity, unit)} à {formatEUR(previous.price)}/{unit} proposés{' '}
            {sideLabel(previous.from, viewer)}
          </Text>
        ) : null}
        {buttons.length > 0 ? (
          <Group gap="xs">
            {buttons.map(({ action, label }) => (
              <Button
                key={action}
                size="xs"
                variant={action === 'accepter' ? 'filled' : 'light'}
                color={action === 'refuser' || action === 'supprimer' ? 'red' : undefined}
                disabled={busy}
                onClick={() => onAction(action)}
              >
                {label}
              </Button>
            ))}
          </Group>
        ) : null}
      </Stack>
    </Paper>
  )
}
