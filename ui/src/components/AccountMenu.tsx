import { Button, Menu } from '@mantine/core'
import { useLocation } from 'wouter'
import { PROFILE_PARAM } from '../onboarding/checklist'
import { ROUTES } from '../routing'
import { useUserType } from '../store/hooks'
import { logout } from '../store/session'

/** The French texts of the account menu. */
export const ACCOUNT_MENU_TEXTS = {
  button: 'Mon compte',
  settings: 'Mon profil et mes paramètres',
  products: 'Mes produits',
  quit: 'Quitter',
} as const

/**
 * The header's account menu (issue 37: settings and "Quitter" were only in
 * the dashboard's footer): "Mon compte", on every screen, opening on the
 * login email, the profile with its settings (the dashboard's profile
 * form, through `/?profil=name`) and "Quitter" (logs out, goes to `/`).
 * Mantine's Menu: taps, and the keyboard (Enter or the arrows open it, the
 * arrows move, Escape closes it, the focus back on the button).
 */
export function AccountMenu({ email }: { email: string }) {
  const [, navigate] = useLocation()
  const type = useUserType()
  const quit = async () => {
    await logout()
    navigate('/')
  }
  return (
    // No initial-focus placeholder: Mantine's is a focusable child without a role inside role="menu"
    // (axe: aria-required-children, critical); the focus goes to the first item instead.
    <Menu position="bottom-end" shadow="md" width={260} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button variant="white" color="green.9" size="compact-sm">
          {ACCOUNT_MENU_TEXTS.button}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label style={{ overflowWrap: 'anywhere' }}>{email}</Menu.Label>
        <Menu.Item onClick={() => navigate(`/?${PROFILE_PARAM}=name`)}>{ACCOUNT_MENU_TEXTS.settings}</Menu.Item>
        {type === 'producer' ? (
          <Menu.Item onClick={() => navigate(ROUTES.prodProducts)}>{ACCOUNT_MENU_TEXTS.products}</Menu.Item>
        ) : null}
        <Menu.Item color="red" onClick={() => void quit()}>
          {ACCOUNT_MENU_TEXTS.quit}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}
