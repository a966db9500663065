import { screen } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { resetState, state } from '../store/state'
import { products } from '../test/needs'
import { renderWithProviders } from '../test/render'
import { PRICE_TEXTS, PriceInfo } from './PriceInfo'

const tomato = products.find((p) => p._id === 'tomate')!

describe('PriceInfo', () => {
  beforeEach(() => {
    resetState()
    state.products = products
  })

  it('shows the average the server gives, and the shop price for a 30 % margin', () => {
    state.prices = [{ product: 'tomate', value: 2.4 }]
    renderWithProviders(<PriceInfo product={tomato} />)
    expect(screen.getByText(`${PRICE_TEXTS.observed} : 2,40 € / kg`)).toBeInTheDocument()
    expect(screen.getByText(`${PRICE_TEXTS.shopPrice} : 3,12 € / kg`)).toBeInTheDocument()
    expect(screen.queryByText(PRICE_TEXTS.referenceNote)).not.toBeInTheDocument()
  })

  it('says there are too few comparable purchases when the server withholds the average, and shows the catalogue', () => {
    state.prices = [{ product: 'melon', value: 3 }]
    renderWithProviders(<PriceInfo product={tomato} />)
    expect(
      screen.getByText(
        "Pas assez d'achats comparables pour afficher une moyenne : ces prix du catalogue sont des références indicatives.",
      ),
    ).toBeInTheDocument()
    expect(screen.getByText(`${PRICE_TEXTS.reference} : 2,10 € / kg`)).toBeInTheDocument()
    expect(screen.queryByText(/Prix d'achat moyen observé/)).not.toBeInTheDocument()
  })
})
