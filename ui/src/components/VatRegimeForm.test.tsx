import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState } from '../store/state'
import { producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { VAT_REGIME_MESSAGES } from '../validation/vatRegime'
import { VatRegimeForm } from './VatRegimeForm'

beforeEach(() => resetState('x@exemple.fr'))

describe('VatRegimeForm', () => {
  it('sends the regime chosen', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response(JSON.stringify({ user: producer, orders: [] })))
    const user = userEvent.setup()
    renderWithProviders(<VatRegimeForm regime="normal" vatNumber="FR32123456789" />)
    const save = screen.getByRole('button', { name: 'Enregistrer le régime de TVA' })
    expect(save).toBeDisabled()
    await user.click(screen.getByLabelText('Remboursement forfaitaire agricole (non redevable de la TVA)'))
    await user.click(save)
    const [url, init] = fetch.mock.calls[0]
    expect(url).toBe('/api/user')
    expect(JSON.parse(String(init?.body))).toEqual({ vatRegime: 'flat' })
  })
  it('refuses the normal regime without a VAT number', async () => {
    const user = userEvent.setup()
    renderWithProviders(<VatRegimeForm vatNumber="" />)
    // No regime stored and no VAT number: the flat-rate refund.
    expect(screen.getByLabelText('Remboursement forfaitaire agricole (non redevable de la TVA)')).toBeChecked()
    await user.click(screen.getByLabelText('Régime normal : vous facturez la TVA'))
    expect(screen.getByRole('alert')).toHaveTextContent(VAT_REGIME_MESSAGES.number)
    expect(screen.getByRole('button', { name: 'Enregistrer le régime de TVA' })).toBeDisabled()
  })
})
