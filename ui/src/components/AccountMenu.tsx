import { Button, Menu } from '@mantine/core'
import { useLocation } from 'wouter'
import { PROFILE_PARAM } from '../onboarding/checklist'
import { ROUTES } from '../routing'
import { useUser, useUserType } from '../store/hooks'
import { logout } from '../store/session'
import { leaveOrganisation, switchOrganisation } from '../store/team'
import { ROLE_LABELS, may } from '../team/roles'

/** The French texts of the account menu. */
export const ACCOUNT_MENU_TEXTS = {
  button: 'Mon compte',
  settings: 'Mon profil et mes paramètres',
  products: 'Mes produits',
  team: 'Équipe',
  leave: 'Quitter cette organisation',
  confirmLeave: (name: string) =>
    `Quitter ${name} ? Votre accès à cette organisation prend fin ; ses documents restent les siens.`,
  organisations: 'Mes organisations',
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
  // Teams (issue 41): the person signed in, their role, the switch
  // between their organisations; "Équipe" for the owners.
  const user = useUser()
  const role = user?.role
  const others = (user?.organisations ?? []).filter((o) => o.id !== user?._id)
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
        {user?.person && (user.person._id !== user._id || others.length > 0) ? (
          // A member, or a person of several organisations: who acts for which, with which role.
          <Menu.Label style={{ overflowWrap: 'anywhere' }}>
            {user.person.name} ({user.name}) · {ROLE_LABELS[role ?? 'owner']}
          </Menu.Label>
        ) : null}
        <Menu.Item onClick={() => navigate(`/?${PROFILE_PARAM}=name`)}>{ACCOUNT_MENU_TEXTS.settings}</Menu.Item>
        {type === 'producer' && may(role, 'create-supplied-product') ? (
          <Menu.Item onClick={() => navigate(ROUTES.prodProducts)}>{ACCOUNT_MENU_TEXTS.products}</Menu.Item>
        ) : null}
        {may(role, 'get-team') ? (
          <Menu.Item onClick={() => navigate(ROUTES.team)}>{ACCOUNT_MENU_TEXTS.team}</Menu.Item>
        ) : role ? (
          <Menu.Item
            onClick={() => {
              if (!user || !window.confirm(ACCOUNT_MENU_TEXTS.confirmLeave(user.name))) return
              void leaveOrganisation().then((ok) => {
                if (ok) navigate('/')
              })
            }}
          >
            {ACCOUNT_MENU_TEXTS.leave}
          </Menu.Item>
        ) : null}
        {others.length > 0 ? (
          <>
            <Menu.Divider />
            <Menu.Label>{ACCOUNT_MENU_TEXTS.organisations}</Menu.Label>
            {others.map((o) => (
              <Menu.Item
                key={o.id}
                onClick={() =>
                  void switchOrganisation(o.id).then((ok) => {
                    if (ok) navigate('/')
                  })
                }
              >
                {o.name} · {ROLE_LABELS[o.role]}
              </Menu.Item>
            ))}
            <Menu.Divider />
          </>
        ) : null}
        <Menu.Item color="red" onClick={() => void quit()}>
          {ACCOUNT_MENU_TEXTS.quit}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}
