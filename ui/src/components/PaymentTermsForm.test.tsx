import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState } from '../store/state'
import { producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { TERMS_MESSAGES } from '../validation/paymentTerms'
import { PaymentTermsForm } from './PaymentTermsForm'

beforeEach(() => resetState('x@exemple.fr'))

describe('PaymentTermsForm', () => {
  it('sends the terms the producer sets, kept within the law', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response(JSON.stringify({ user: producer, orders: [] })))
    const user = userEvent.setup()
    renderWithProviders(<PaymentTermsForm />)
    const save = screen.getByRole('button', { name: 'Enregistrer les conditions' })
    expect(save).toBeDisabled()

    await user.click(screen.getByText('Après la fin du mois'))
    const days = screen.getByLabelText('Délai (jours)')
    await user.clear(days)
    await user.type(days, '12')
    await user.tab()
    // Past the legal maximum after the month: brought back to it.
    expect(days).toHaveValue('9')

    await user.clear(days)
    await user.type(days, '5')
    const discount = screen.getByLabelText('Escompte pour paiement anticipé (%)')
    await user.clear(discount)
    await user.type(discount, '2,5')
    expect(discount).toHaveValue('2,5')
    await user.tab()
    expect(screen.getByText(TERMS_MESSAGES.discount)).toBeInTheDocument()
    const window = screen.getByLabelText('Escompte si payé sous (jours)')
    await user.clear(window)
    await user.type(window, '8')
    expect(window).toHaveValue('8')
    expect(screen.queryByText(TERMS_MESSAGES.discount)).not.toBeInTheDocument()

    await user.click(save)
    const [url, init] = fetch.mock.calls[0]
    expect(url).toBe('/api/user')
    expect(JSON.parse(String(init?.body))).toEqual({
      paymentTerms: { basis: 'month', days: 5, discount: 250, discountDays: 8 },
    })
  })
})
