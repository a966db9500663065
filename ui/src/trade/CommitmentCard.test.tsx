import { render, screen } from '@testing-library/react'
import { MantineProvider } from '@mantine/core'
import { describe, expect, it, vi } from 'vitest'
import { theme } from '../theme'
import { CommitmentCard, cardClassName, cardStyle, makerLabel } from './CommitmentCard'

const p = (status: 'accepted' | 'proposed' | 'rejected', from?: 'producer' | 'distributor') => ({
  _id: 'x',
  producer: 'p1',
  status,
  from,
  quantity: 12.5,
  price: 2.4,
})

describe('cardStyle', () => {
  it('styles accepted, rejected, proposed, selected, own and waiting cards', () => {
    expect(cardClassName(cardStyle(p('accepted'), 'producer'))).toBe('trade-card trade-card--accepted')
    expect(cardClassName(cardStyle(p('accepted'), 'producer', { waiting: true }))).toBe(
      'trade-card trade-card--accepted trade-card--waiting',
    )
    expect(cardClassName(cardStyle(p('proposed'), 'producer', { selected: true }))).toBe(
      'trade-card trade-card--proposed trade-card--selected trade-card--own',
    )
    expect(cardClassName(cardStyle(p('proposed', 'distributor'), 'producer'))).toBe('trade-card trade-card--proposed')
    expect(cardClassName(cardStyle(p('rejected', 'distributor'), 'distributor'))).toBe(
      'trade-card trade-card--rejected trade-card--own',
    )
  })
  it('names the maker from the viewer’s side', () => {
    expect(makerLabel(p('proposed'), 'producer')).toBe('par vous')
    expect(makerLabel(p('proposed'), 'distributor')).toBe('par le producteur')
    expect(makerLabel(p('proposed', 'distributor'), 'producer')).toBe('par le magasin')
  })
})

describe('CommitmentCard', () => {
  const renderCard = (actions: string[], onAction = vi.fn()) =>
    render(
      <MantineProvider theme={theme} env="test">
        <CommitmentCard
          title="Engagement"
          proposal={p('accepted')}
          unit="kg"
          viewer="producer"
          actions={actions}
          onAction={onAction}
        />
      </MantineProvider>,
    )
  it('shows quantity, price and its actions', () => {
    const onAction = vi.fn()
    renderCard(['corriger'], onAction)
    expect(screen.getByRole('article', { name: 'Engagement' })).toHaveTextContent('12,5 kg à 2,40 €/kg')
    screen.getByRole('button', { name: 'Corriger' }).click()
    expect(onAction).toHaveBeenCalledWith('corriger')
  })
  it('throws on an unknown action', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => renderCard(['annuler'])).toThrow('Unknown commitment action: annuler')
  })
})
