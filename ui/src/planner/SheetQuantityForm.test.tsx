import { fireEvent, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../test/render'
import type { NeedRO } from './model'
import { SHEET_QUANTITY_TEXTS, SheetQuantityForm } from './SheetQuantityForm'
import type { CommitOutcome } from './Planner'

const need = { _id: 'n1', product: 'p1', date: '2027-03', quantity: 12.5 } as unknown as NeedRO

function renderForm(onCommit: (p: string, m: string, t: string) => Promise<CommitOutcome>, month = '2027-03') {
  renderWithProviders(
    <SheetQuantityForm productId="p1" unit="kg" month={month} current="2027-01" need={need} onCommit={onCommit} />,
  )
  return screen.getByLabelText(SHEET_QUANTITY_TEXTS.label('kg'))
}

describe('SheetQuantityForm', () => {
  it('starts from the stored quantity and sends the typed one through the planner’s commit', async () => {
    const onCommit = vi.fn(async (): Promise<CommitOutcome> => ({ kind: 'saved' }))
    const input = renderForm(onCommit)
    expect(input).toHaveValue('12,5')
    await userEvent.clear(input)
    await userEvent.type(input, '20.5x')
    expect(input).toHaveValue('20,5')
    fireEvent.click(screen.getByRole('button', { name: SHEET_QUANTITY_TEXTS.submit }))
    expect(await screen.findByRole('status')).toHaveTextContent(SHEET_QUANTITY_TEXTS.saved)
    expect(onCommit).toHaveBeenCalledWith('p1', '2027-03', '20,5')
  })

  it('says a refusal under the field, and nothing was saved', async () => {
    const message =
      'La valeur saisie ne peut être inférieure à la somme des engagements et des propositions non traitées.'
    const input = renderForm(async () => ({ kind: 'refused', message }))
    await userEvent.clear(input)
    await userEvent.type(input, '1')
    fireEvent.click(screen.getByRole('button', { name: SHEET_QUANTITY_TEXTS.submit }))
    expect(await screen.findByText(message)).toBeInTheDocument()
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('says when nothing changed', async () => {
    renderForm(async () => ({ kind: 'unchanged' }))
    fireEvent.click(screen.getByRole('button', { name: SHEET_QUANTITY_TEXTS.submit }))
    expect(await screen.findByRole('status')).toHaveTextContent('Pas de changement à envoyer')
  })

  it('offers nothing for a past month', () => {
    renderWithProviders(
      <SheetQuantityForm productId="p1" unit="kg" month="2026-12" current="2027-01" need={need} onCommit={vi.fn()} />,
    )
    expect(screen.queryByLabelText(SHEET_QUANTITY_TEXTS.label('kg'))).toBeNull()
  })
})
