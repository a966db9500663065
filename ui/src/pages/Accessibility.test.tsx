import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetSite } from '../store/site'
import { renderWithProviders } from '../test/render'
import { Accessibility } from './Accessibility'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

beforeEach(() => {
  resetSite()
})

describe('the accessibility statement', () => {
  it('gives the contact the daemon is set with as a mailto link', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(
        json(200, { accessibilityContact: 'accessibilite@primeur.example', accessibilityContactSource: 'setting' }),
      )
    renderWithProviders(<Accessibility />)
    expect(screen.getByRole('heading', { name: "Retour d'information et contact" })).toBeInTheDocument()
    const link = await screen.findByRole('link', { name: 'accessibilite@primeur.example' })
    expect(link).toHaveAttribute('href', 'mailto:accessibilite@primeur.example')
    expect(link.parentElement).toHaveTextContent(
      "Écrivez à l'exploitant de cette plateforme : accessibilite@primeur.example.",
    )
    expect(fetch.mock.calls[0][0]).toBe('/public/site')
  })

  it('says when the address is the mail sender’s', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json(200, { accessibilityContact: 'contact@primeur.example', accessibilityContactSource: 'mail-sender' }),
    )
    renderWithProviders(<Accessibility />)
    const link = await screen.findByRole('link', { name: 'contact@primeur.example' })
    expect(link).toHaveAttribute('href', 'mailto:contact@primeur.example')
    expect(link.parentElement).toHaveTextContent(
      "Écrivez à l'exploitant de cette plateforme : contact@primeur.example (l'adresse d'où la plateforme envoie ses courriels).",
    )
  })

  it('says so when the operator gave no address, and where else to turn', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json(200, { accessibilityContact: '', accessibilityContactSource: 'none' }),
    )
    renderWithProviders(<Accessibility />)
    expect(
      await screen.findByText(/^L'exploitant de cette plateforme n'a pas encore indiqué d'adresse de contact\./),
    ).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /@/ })).not.toBeInTheDocument()
  })

  it('offers to try again when the address could not be loaded', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(503, { status: 503, title: 'Service Unavailable', detail: '' }))
      .mockResolvedValueOnce(
        json(200, { accessibilityContact: 'aide@primeur.example', accessibilityContactSource: 'setting' }),
      )
    const user = userEvent.setup()
    renderWithProviders(<Accessibility />)
    expect(await screen.findByText("L'adresse de contact n'a pas pu être chargée.")).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Réessayer' }))
    expect(await screen.findByRole('link', { name: 'aide@primeur.example' })).toHaveAttribute(
      'href',
      'mailto:aide@primeur.example',
    )
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2))
  })

  it('states what was tested of the grid and the charts, and no longer lists them as not conform', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json(200, { accessibilityContact: '', accessibilityContactSource: 'none' }),
    )
    renderWithProviders(<Accessibility />)
    expect(screen.getByText(/^La grille de planification des besoins, selon le motif/)).toBeInTheDocument()
    expect(screen.getByText(/^Les graphiques \(statistiques des achats, progression/)).toBeInTheDocument()
    expect(screen.queryByText(/la touche Tab passe d'une cellule à la suivante/)).not.toBeInTheDocument()
    expect(screen.queryByText(/ne sont pas\s+toutes disponibles sous forme de texte/)).not.toBeInTheDocument()
    await screen.findByText(/n'a pas encore indiqué d'adresse de contact/)
  })
})
