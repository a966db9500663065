import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { suppliedState } from '../store/supplied'
import { renderWithProviders } from '../test/render'
import type { Product } from '../types'
import { ProducerProducts } from './ProducerProducts'

const tommeType = {
  _id: 'tomme-de-savoie',
  name: 'Tomme de Savoie',
  unit: 'kg',
  family: 'fromages',
  vatRate: 550,
  refPrice: 0,
} as Product

const tomme = {
  _id: 'p1',
  producer: 'dairy',
  productType: 'tomme-de-savoie',
  productTypeName: 'Tomme de Savoie',
  family: 'fromages',
  unit: 'kg',
  name: 'Tomme de Savoie fermière',
  packaging: 'pièce',
  unitQuantity: 1.5,
  saleUnit: 'pièce de 1,5 kg',
  labels: ['aop'],
  certifier: '',
  months: [1, 2, 3, 10, 11, 12],
  refPrice: 14.5,
  photo: null,
  documentName: 'Tomme de Savoie fermière (pièce de 1,5 kg) · AOP',
}

beforeEach(() => {
  resetState('fruitiere@aravis.fr')
  state.products = [tommeType]
  state.families = [{ _id: 'fromages', name: 'Fromages' }]
  suppliedState.mine = []
  suppliedState.loaded = false
})

describe('ProducerProducts', () => {
  it('lists a new product of a type found without its accents, with its sale unit and label, and shows what the daemon refused', async () => {
    const calls: { url: string; method: string; body: unknown }[] = []
    let refuse = true
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = String(input)
      const method = init?.method ?? 'GET'
      calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : null })
      if (method === 'GET') return new Response('[]')
      if (refuse) {
        refuse = false
        return new Response(
          JSON.stringify({
            status: 422,
            detail: 'Vous avez déjà un produit de ce nom.',
            errors: [{ location: 'body.name', message: 'Vous avez déjà un produit de ce nom.' }],
          }),
          { status: 422, headers: { 'Content-Type': 'application/problem+json' } },
        )
      }
      return new Response(JSON.stringify(tomme), { status: 201 })
    })
    const user = userEvent.setup()
    renderWithProviders(<ProducerProducts />, { path: '/prod/products' })
    expect(await screen.findByText('Aucun produit pour l’instant.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Ajouter un produit' }))
    await user.type(screen.getByPlaceholderText('Tomme, œufs, miel…'), 'tomme de savoie')
    await user.click(await screen.findByRole('option', { name: 'Tomme de Savoie' }))
    await user.type(screen.getByRole('textbox', { name: /^Nom du produit/ }), 'Tomme de Savoie fermière')
    await user.type(screen.getByRole('textbox', { name: /^Unité de vente/ }), 'pièce')
    const content = screen.getByRole('textbox', { name: /^Contenu d’une unité de vente/ })
    await user.clear(content)
    await user.type(content, '1,5')
    await user.click(screen.getByRole('checkbox', { name: 'AOP / AOC' }))
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    expect(
      await screen.findByText('Vous avez déjà un produit de ce nom.', { selector: '.mantine-InputWrapper-error' }),
    ).toBeInTheDocument()
    const post = calls.find((c) => c.method === 'POST')!
    expect(post.url).toBe('/api/supplied-products')
    expect(post.body).toEqual({
      productType: 'tomme-de-savoie',
      name: 'Tomme de Savoie fermière',
      packaging: 'pièce',
      unitQuantity: 1.5,
      labels: ['aop'],
      certifier: '',
      months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      refPrice: 0,
    })
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    const card = await screen.findByTestId('supplied-product')
    expect(within(card).getByText('Tomme de Savoie · pièce de 1,5 kg')).toBeInTheDocument()
    expect(within(card).getByText('AOP')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Enregistrer' })).not.toBeInTheDocument())
  })

  it('asks for the certifier’s number once the product is organic', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('[]'))
    const user = userEvent.setup()
    renderWithProviders(<ProducerProducts />, { path: '/prod/products' })
    await user.click(await screen.findByRole('button', { name: 'Ajouter un produit' }))
    expect(screen.queryByRole('textbox', { name: /organisme certificateur/ })).not.toBeInTheDocument()
    await user.click(screen.getByRole('checkbox', { name: 'Agriculture biologique (AB)' }))
    expect(screen.getByRole('textbox', { name: /organisme certificateur/ })).toBeInTheDocument()
  })
})
