import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { distributor } from '../test/fixtures'
import { need, products } from '../test/needs'
import { renderWithProviders } from '../test/render'
import { AddBar } from './AddBar'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-11-20T10:00:00Z'))
  resetState(distributor.email)
  state.user = distributor
  state.products = products
  state.needs = [need('tomate', '2026-11-01', 10)]
})

afterEach(() => {
  vi.useRealTimers()
})

async function pick(
  user: ReturnType<typeof userEvent.setup>,
  form: HTMLElement,
  label: string,
  search: string,
  option: string,
) {
  await user.type(within(form).getByRole('combobox', { name: label }), search)
  await user.click(await screen.findByRole('option', { name: option }))
}

describe('AddBar', () => {
  it('adds one need, refusing a month that already has one', async () => {
    const user = userEvent.setup()
    const created = need('tomate', '2026-12-01', 12.5)
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(201, created))
    renderWithProviders(<AddBar />)
    await user.click(screen.getByRole('button', { name: 'Ajouter un besoin' }))
    const form = await screen.findByRole('form', { name: 'Ajouter un besoin' })
    const submit = within(form).getByRole('button', { name: 'Ajouter' })
    expect(submit).toBeDisabled()

    await pick(user, form, 'Produit', 'tom', 'Tomate')
    // The current month, shown by default, already has a tomato need.
    expect(within(form).getByText('Un besoin existe déjà pour ce produit et ce mois.')).toBeInTheDocument()
    await user.click(within(form).getByRole('combobox', { name: 'Mois' }))
    await user.click(await screen.findByRole('option', { name: 'décembre 2026' }))
    await user.type(within(form).getByRole('textbox', { name: 'Quantité' }), '12.5x')
    expect(within(form).getByRole('textbox', { name: 'Quantité' })).toHaveValue('12,5')
    expect(submit).toBeEnabled()
    await user.click(submit)

    await waitFor(() => expect(screen.queryByRole('form', { name: 'Ajouter un besoin' })).not.toBeInTheDocument())
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/needs')
    expect(JSON.parse(String(init.body))).toEqual({ product: 'tomate', date: '2026-12-01', quantity: 12.5 })
    expect(state.needs).toContainEqual(created)
  })

  it('bulk-adds one product over several months', async () => {
    const user = userEvent.setup()
    const event = {
      createdAt: '2026-11-20T10:00:00Z',
      type: 'need:create:bulk',
      data: {},
      origin: { email: '', name: '' },
      target: { name: '' },
    }
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(json(200, { needs: [need('melon', '2026-12-01', 3), need('melon', '2027-01-01', 4)], event }))
    renderWithProviders(<AddBar />)
    await user.click(screen.getByRole('button', { name: 'Ajout groupé' }))
    const form = await screen.findByRole('form', { name: 'Ajout groupé de besoins' })
    await pick(user, form, 'Produit', 'mel', 'Melon')
    await pick(user, form, 'Mois', 'janv', 'janvier 2027')
    await pick(user, form, 'Mois', 'déc', 'décembre 2026')
    // Months are listed in order; pieces take no decimal.
    const quantities = within(form).getAllByRole('textbox', { name: /^Quantité pour/ })
    expect(quantities).toHaveLength(2)
    expect(quantities[0]).toHaveAccessibleName('Quantité pour décembre 2026')
    expect(quantities[1]).toHaveAccessibleName('Quantité pour janvier 2027')
    await user.type(within(form).getByRole('textbox', { name: 'Quantité pour décembre 2026' }), '3')
    await user.type(within(form).getByRole('textbox', { name: 'Quantité pour janvier 2027' }), '0')
    await user.click(within(form).getByRole('textbox', { name: 'Quantité pour décembre 2026' }))
    expect(within(form).getByText('Veuillez saisir une quantité supérieure à zéro')).toBeInTheDocument()
    expect(within(form).getByRole('button', { name: 'Ajouter' })).toBeDisabled()
    await user.clear(within(form).getByRole('textbox', { name: 'Quantité pour janvier 2027' }))
    await user.type(within(form).getByRole('textbox', { name: 'Quantité pour janvier 2027' }), '4,5')
    expect(within(form).getByRole('textbox', { name: 'Quantité pour janvier 2027' })).toHaveValue('45')
    await user.click(within(form).getByRole('button', { name: 'Ajouter' }))

    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1))
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/needs/bulk')
    expect(JSON.parse(String(init.body))).toEqual({
      product: 'melon',
      dates: ['2026-12-01', '2027-01-01'],
      quantities: [3, 45],
    })
    await waitFor(() => expect(state.events[0]?.type).toBe('need:create:bulk'))
    expect(state.needs.filter((n) => n.product === 'melon')).toHaveLength(2)
  })

  it('opens the standard import and the Excel file import', async () => {
    const user = userEvent.setup()
    renderWithProviders(<AddBar />)
    await user.click(screen.getByRole('button', { name: 'Import standard' }))
    const standard = await screen.findByRole('form', { name: 'Import standard' })
    expect(within(standard).getByRole('button', { name: 'Simuler' })).toBeDisabled()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Import standard' })).not.toBeInTheDocument())

    await user.click(screen.getByRole('button', { name: 'Import Excel' }))
    const excel = await screen.findByRole('form', { name: "Import d'un fichier Excel" })
    expect(within(excel).getByRole('link', { name: "Télécharger le fichier d'exemple" })).toHaveAttribute(
      'href',
      '/public/other/exemple_import.xlsx',
    )
    expect(within(excel).getByRole('link', { name: 'Télécharger la liste des produits' })).toHaveAttribute(
      'href',
      '/public/other/products.csv',
    )
    expect(within(excel).getByRole('link', { name: 'Liste des produits au format Excel' })).toHaveAttribute(
      'href',
      '/public/other/produits.xlsx',
    )
  })
})
