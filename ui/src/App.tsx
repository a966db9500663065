import './mantine.css'
import '@mantine/notifications/styles.css'
import 'dayjs/locale/fr'
import './a11y/a11y.css'

import { MantineProvider } from '@mantine/core'
import { DatesProvider } from '@mantine/dates'
import { Suspense, lazy } from 'react'
import { Loading } from './components/Loading'
import { Route, Router, Switch } from 'wouter'
import { AppHeader } from './components/AppHeader'
import { Protected } from './components/Protected'
import { SiteFooter } from './components/SiteFooter'
import { SkipLink } from './components/SkipLink'
import { Toasts } from './components/Toasts'
import { About } from './pages/About'
import { Landing } from './pages/Landing'
import { NotFound } from './pages/NotFound'
import { ROUTES } from './routing'
import { SCREENS } from './screens'
import { cssVariablesResolver, datesSettings, theme } from './theme'

// Protected screens are split out so the landing page stays small (see screens.ts).
// The accessibility statement is a page few visitors open: its text loads
// with it, not with every visitor's first page (e2e/budget.spec.ts).
const Accessibility = lazy(() => import('./pages/Accessibility').then((m) => ({ default: m.Accessibility })))
const Dashboard = lazy(SCREENS.dashboard)
const ProducerNeeds = lazy(SCREENS.prodNeeds)
const ProducerDeliveries = lazy(SCREENS.prodDeliveries)
const ProducerDay = lazy(SCREENS.prodDay)
const DistributorNeeds = lazy(SCREENS.disNeeds)
const DistributorSupply = lazy(SCREENS.disSupply)
const DistributorDeliveries = lazy(SCREENS.disDeliveries)
const ShopReception = lazy(SCREENS.disReception)
const PaymentsPage = lazy(SCREENS.prodPayments)
const ProducerProducts = lazy(SCREENS.prodProducts)
const ProducerPage = lazy(SCREENS.disProducer)
const TeamPage = lazy(SCREENS.team)

/** Every route of PRODUCT §2, in one Switch ending with the 404. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path={ROUTES.landing} component={Landing} />
      <Route path={ROUTES.about} component={About} />
      <Route path={ROUTES.accessibility}>
        <Suspense fallback={<Loading />}>
          <Accessibility />
        </Suspense>
      </Route>
      <Route path={ROUTES.dashboard}>
        <Protected page={Dashboard} />
      </Route>
      <Route path={ROUTES.prodNeeds}>
        <Protected page={ProducerNeeds} />
      </Route>
      <Route path={ROUTES.prodDeliveries}>
        <Protected page={ProducerDeliveries} />
      </Route>
      <Route path={ROUTES.prodDay}>
        <Protected page={ProducerDay} />
      </Route>
      <Route path={ROUTES.disNeeds}>
        <Protected page={DistributorNeeds} />
      </Route>
      <Route path={ROUTES.disSupply}>
        <Protected page={DistributorSupply} />
      </Route>
      <Route path={ROUTES.disDeliveries}>
        <Protected page={DistributorDeliveries} />
      </Route>
      <Route path={ROUTES.disReception}>
        <Protected page={ShopReception} />
      </Route>
      <Route path={ROUTES.prodPayments}>
        <Protected page={PaymentsPage} />
      </Route>
      <Route path={ROUTES.disPayments}>
        <Protected page={PaymentsPage} />
      </Route>
      <Route path={ROUTES.prodProducts}>
        <Protected page={ProducerProducts} />
      </Route>
      <Route path={ROUTES.disProducer}>
        <Protected page={ProducerPage} />
      </Route>
      <Route path={ROUTES.team}>
        <Protected page={TeamPage} />
      </Route>
      <Route component={NotFound} />
    </Switch>
  )
}

/** Providers (Mantine, dates, toasts), the header and the routes. */
export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <DatesProvider settings={datesSettings}>
        {/* The toasts' containers, always in the page (a polite live region), never over a dialog's header on a phone. */}
        <Toasts />
        <Router>
          <SkipLink />
          <AppHeader />
          <AppRoutes />
          <SiteFooter />
        </Router>
      </DatesProvider>
    </MantineProvider>
  )
}
