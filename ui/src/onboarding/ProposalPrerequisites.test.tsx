import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { ProposalForm } from '../trade/ProposalForm'
import { NO_DELIVERY_DAYS_NOTICE } from './checklist'

const NO_DAYS = [false, false, false, false, false, false, false]

function form() {
  const onSubmit = vi.fn(async () => ({ ok: true }))
  const result = renderWithProviders(
    <ProposalForm
      title="Proposer"
      unit="kg"
      max={100}
      zeroAllowed={false}
      submitLabel="Proposer"
      onSubmit={onSubmit}
    />,
  )
  return { ...result, onSubmit }
}

beforeEach(() => resetState('x@exemple.fr'))

describe('the proposal form before the producer types', () => {
  it('says that delivery days are missing, with a link to the field, and takes no input', async () => {
    state.user = { ...producer, defaultDeliveryDays: NO_DAYS }
    const user = userEvent.setup()
    const { currentPath } = form()
    expect(screen.getByText(NO_DELIVERY_DAYS_NOTICE, { exact: false })).toBeInTheDocument()
    expect(screen.getByLabelText('Quantité (kg)')).toBeDisabled()
    expect(screen.getByLabelText('Prix unitaire HT (€/kg)')).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Proposer' })).toBeDisabled()
    await user.click(screen.getByRole('link', { name: 'Choisir mes jours de livraison' }))
    expect(currentPath()).toBe('/?profil=defaultDeliveryDays')
  })

  it('says nothing to a producer with delivery days, nor to a shop', () => {
    state.user = producer
    const { unmount } = form()
    expect(screen.queryByText(NO_DELIVERY_DAYS_NOTICE, { exact: false })).not.toBeInTheDocument()
    expect(screen.getByLabelText('Quantité (kg)')).toBeEnabled()
    unmount()
    state.user = distributor
    form()
    expect(screen.queryByText(NO_DELIVERY_DAYS_NOTICE, { exact: false })).not.toBeInTheDocument()
  })
})
