// The help in English. Same sections and entries, with the same ids and in the same order, as es.ts.
// The sync statuses are named as the top bar shows them (the "sync" section of the app's texts;
// help.test.ts checks they match).
import type { HelpTexts } from "./types";

export const helpEn: HelpTexts = {
  sections: [
    {
      id: "start",
      title: "Getting started",
      summary: "What Patrimonio is and where to begin.",
      entries: [
        {
          id: "what",
          title: "What you can do here",
          paragraphs: [
            "Patrimonio brings together what you own (real estate, vehicles, investments, bank accounts, cryptocurrencies, collectibles, commodities and other assets), what you owe, who will receive it and what your heirs should do. From that it works out your net worth and charts how it is spread, how diversified it is and how it performs.",
            "It is a record-keeping tool: it does not move money or give financial, tax or legal advice. Its figures are as accurate as the data you enter.",
          ],
        },
        {
          id: "steps",
          title: "How to begin",
          paragraphs: ["An order that works well:"],
          items: [
            "Protect your account with a second factor and a passkey (when you sign up, or later from your profile).",
            "Add your assets from “Asset List” → “Add asset”: pick the category and fill in the form. Name, currency, your share and the current value are enough; complete the rest whenever you like.",
            "Record your debts under “Liabilities” and tie each to the asset it finances (a mortgage to its flat) to see each asset's net equity.",
            "Under “Beneficiaries”, say who receives each asset and leave your instructions; the executor's binder gathers them into a printable document.",
            "Use “Tasks” so you do not forget renewals, reviews and deadlines.",
          ],
          links: [
            { to: "/profile", label: "Your profile: second factor and passkey" },
            { to: "/assets/new", label: "Add asset" },
            { to: "/liabilities", label: "Liabilities" },
            { to: "/beneficiaries", label: "Beneficiaries" },
            { to: "/tasks", label: "Tasks" },
          ],
        },
        {
          id: "workspaces",
          title: "Workspaces and roles",
          paragraphs: [
            "Your records live in a workspace. You have a personal one and can create team workspaces (for your family, say) and invite other people. The switcher in the top bar changes workspace.",
            "Every member has a role: owners manage the members and edit; editors edit; viewers only read. If you see the “Read only” notice, you are a viewer: ask an owner to change your role.",
          ],
          links: [
            { to: "/workspaces", label: "Workspaces" },
          ],
        },
        {
          id: "language",
          title: "Language, theme and number format",
          paragraphs: [
            "Change the language (Spanish or English) and the theme (light, dark or the system's) in the top bar; on a phone, in the side menu. Amounts and dates are typed and shown your way: in English, 1,234.56; dates are typed day/month/year.",
          ],
        },
      ],
    },
    {
      id: "sync",
      title: "Sync: what each status means",
      summary: "The indicator in the top bar, conflicts and refused changes.",
      entries: [
        {
          id: "how",
          title: "How it works",
          paragraphs: [
            "Every device keeps a copy of your workspaces' records. What you change is saved on the device first and then sent to the server, which passes it on to your other devices and to the workspace's other members. The indicator in the top bar tells you where things stand.",
          ],
        },
        {
          id: "starting",
          title: "Starting…",
          paragraphs: ["The app is opening the copy of your data on this device. It takes a moment when the page loads."],
        },
        {
          id: "connecting",
          title: "Connecting…",
          paragraphs: ["The app is connecting to the server: when the page loads or the internet connection comes back. If it cannot, it turns to “Offline” and keeps trying on its own; meanwhile you can keep working."],
        },
        {
          id: "synced",
          title: "Synced",
          paragraphs: ["Everything you changed on this device is on the server and you have the latest from everyone else. Hover over it to see when it last synced."],
        },
        {
          id: "syncing",
          title: "Syncing…",
          paragraphs: [
            "Your changes are being sent, or other devices' changes received. Keep working. The first time you sign in on a device you will see “Downloading… N records” while the full copy arrives.",
          ],
        },
        {
          id: "offline",
          title: "Offline",
          paragraphs: [
            "There is no connection to the server. You can keep reading and editing: changes stay on the device and are sent by themselves when the connection is back. Next to the status you will see when it last synced.",
          ],
        },
        {
          id: "pending",
          title: "N changes to send",
          paragraphs: [
            "Changes made on this device that the server has not confirmed yet. That is normal offline or right after saving. Do not sign out while any are left: signing out erases the device's copy, and with it any change not sent yet.",
          ],
        },
        {
          id: "conflicts",
          title: "N conflicts",
          paragraphs: [
            "Two devices changed the same value without seeing each other's change (both offline, for example). The latest change wins and the other value is not lost: it is kept as a conflict.",
            "What to do: open the record. Next to the field you will see the replaced value, which device wrote it and when. Press “Restore” to bring it back, or “Keep current” (or “Dismiss”) to keep the one shown. Your choice applies on every device.",
          ],
        },
        {
          id: "rejected",
          title: "N changes refused",
          paragraphs: [
            "The server did not accept a change. The device still shows it, marked as refused, so you do not lose it. Press the notice to see the workspace's refused changes: which record, what change, why and when. For each, “Discard” undoes the change on this device and shows what the server has again (a refused delete makes the record reappear), and “Retry” sends it again. The usual reasons:",
          ],
          items: [
            "Your role in that workspace is viewer (or it was changed while you were offline): ask an owner to make you an editor, then press “Retry” or save the record again. If you will not be able to edit, discard it.",
            "You are no longer a member of that workspace: the change cannot be sent; discard it.",
            "Together with another device's edit the data is no longer valid (shares adding up to more than 100 %, for example): open the record, fix what the form points out and save it again. Saving sends the refused change again with the fix.",
          ],
        },
        {
          id: "stopped",
          title: "When sync stops",
          paragraphs: ["Sometimes the indicator shows a notice instead of a status:"],
          items: [
            "“Session ended: sign in to sync”: your session expired or was closed elsewhere. Sign in again; what is pending is sent afterwards.",
            "“Update the app to keep syncing”: there is a new version. Reload the page (or press “Reload” on the new-version notice).",
            "“The server runs an older version of the app: your changes wait on this device”: whoever runs this installation went back to an older version of the server. You need not do anything: your changes stay on the device and the app tries again every minute; they are sent as soon as the server is updated.",
            "“Syncing in another window”: another tab of this browser is doing the syncing. Nothing to do.",
            "“Sign out and in again to sync”: your permissions changed. If you can, wait until nothing is left to send, then sign out and in again.",
            "“Sync stopped”: an unexpected error. Reload the page; if it happens again, tell whoever runs this installation.",
            "“Device storage is full: free up space to sync”: the browser will not store more data on this device. Free up space (other sites, downloads, apps); the app tries again by itself and loses nothing of what is pending.",
            "“Sync could not be saved on this device; retrying”: something failed while saving what the server sent. The app tries again, less and less often; if the notice stays, reload the page.",
            "“This device's storage cannot be opened”: the browser does not let the app open its database (in a private window, say, or with storage blocked). Press “Retry”; if it stays, check the site's permissions in the browser.",
          ],
        },
      ],
    },
    {
      id: "offline",
      title: "Working offline",
      summary: "What works without internet and what needs a connection.",
      entries: [
        {
          id: "works",
          title: "What works offline",
          paragraphs: [
            "After your first visit the app is stored in the browser (you will see “Ready to work offline”) and opens without internet. Offline you can read and edit your assets, liabilities, flows, beneficiaries, instructions and tasks, see the dashboard and the map, and read this help.",
            "If you install the app (from the browser's menu, “Install” or “Add to Home screen”), it opens like any other app.",
          ],
        },
        {
          id: "needs",
          title: "What needs a connection",
          paragraphs: [
            "Signing in or up, changing your profile, e-mail or security, managing members and subscriptions, the admin area and the first sign-in on a new device. Exchange rates are updated when online; offline the last ones downloaded are used.",
          ],
        },
        {
          id: "back",
          title: "When the connection comes back",
          paragraphs: [
            "Your changes are sent by themselves, in the order you made them, and you receive everyone else's. If someone changed the same thing as you, you will see a conflict you can resolve (see “Sync”).",
          ],
        },
        {
          id: "devices",
          title: "Several devices",
          paragraphs: [
            "You can use Patrimonio on your computer and your phone at once: each keeps its copy and they catch up when they sync. Signing out on a device erases its copy; your data stays on the server and your other devices.",
          ],
        },
      ],
    },
    {
      id: "security",
      title: "Security",
      summary: "Second factor, passkeys and the encrypted logins vault.",
      entries: [
        {
          id: "second-factor",
          title: "Second factor",
          paragraphs: [
            "Besides your password, you can require a 6-digit code from an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…). Turn it on when you sign up or from your profile: scan the QR code, or type the manual code, and confirm with the first code the app gives you.",
            "For sensitive actions (changing your e-mail, deleting the account) the app checks it is you again: with your password, the authenticator code or a code we e-mail you.",
          ],
          links: [
            { to: "/profile", label: "Your profile" },
          ],
        },
        {
          id: "passkeys",
          title: "Passkeys",
          paragraphs: [
            "A passkey lets you sign in with your device's fingerprint, face or PIN, without typing your password. It cannot be guessed or stolen by a fake page. Create one when you sign up or from your profile; you can have one on each device.",
          ],
          links: [
            { to: "/profile", label: "Your profile" },
          ],
        },
        {
          id: "vault",
          title: "The logins vault",
          paragraphs: [
            "Under “Logins” you keep the user names and passwords your heirs will need (banks, e-mail, brokers). Passwords and notes are encrypted on your device with a passphrase before they are stored or sent: neither the server nor whoever runs it can read them.",
            "The vault is locked by default. Open it with the passphrase; it locks again by itself after a while without activity and when you sign out. Locked, it shows institutions and user names, but no passwords.",
            "Keep the passphrase somewhere safe and give it to whoever must open the vault: if it is forgotten, nobody can recover the stored passwords.",
          ],
          links: [
            { to: "/logins", label: "Logins" },
          ],
        },
        {
          id: "vault-rotate",
          title: "If the passphrase leaked: rotate the key",
          paragraphs: [
            "Changing the passphrase only protects the same key again: someone with an old copy of the vault and the old passphrase could still open it. If the passphrase leaked or you removed someone from the workspace who knew it, open the vault and press “Rotate the key”.",
            "A new key is made with a new passphrase and every login is encrypted again with it; whatever is saved afterwards, on any device, uses the new key. The old keys are kept under the new passphrase so that nothing saved offline is lost. The old passphrase could at most read what was already saved before; so afterwards, change at each institution the passwords that may have been seen.",
            "Your other devices and the members will need the new passphrase. A device that was still open with the old key says so and asks for it.",
          ],
          links: [
            { to: "/logins", label: "Logins" },
          ],
        },
        {
          id: "device",
          title: "Your device",
          paragraphs: [
            "While you are signed in, anyone using your browser can see the copy of your data: lock your devices and sign out on those that are not yours. Signing out erases that device's copy.",
          ],
        },
      ],
    },
    {
      id: "binder",
      title: "The executor's binder",
      summary: "A printable document with what your heirs need to know.",
      entries: [
        {
          id: "what",
          title: "What it is",
          paragraphs: [
            "A single document, in your language, for whoever will handle your estate: your assets with where they are and at which institution, your debts, your beneficiaries and what each receives, your instructions, and where the logins vault is and how to open it (it never includes the passwords).",
          ],
        },
        {
          id: "how",
          title: "How to get it",
          paragraphs: [
            "Open it from “Beneficiaries”. Use “Print” to print it or save it as a PDF from the browser's print dialog. It is made on your device from the data you have at that moment, so it works offline too.",
            "Print it again when something important changes and keep it where your heirs can find it; it is a confidential document.",
          ],
          links: [
            { to: "/beneficiaries/binder", label: "Open the executor's binder" },
          ],
        },
      ],
    },
    {
      id: "faq",
      title: "Frequently asked questions",
      summary: "Common questions.",
      entries: [
        {
          id: "where-data",
          title: "Where is my data stored?",
          paragraphs: [
            "On this installation's server and, as a copy, on every device you sign in on. The logins vault's passwords are stored encrypted with your passphrase. The privacy policy explains it in detail.",
          ],
          links: [
            { to: "/privacy", label: "Privacy policy" },
          ],
        },
        {
          id: "delete-asset",
          title: "What happens if I delete an asset?",
          paragraphs: [
            "It is deleted with its valuation history. The debts, instructions, flows, tasks and logins that referred to it are kept, no longer tied to any asset; beneficiaries lose only their allocation of that asset. It cannot be undone.",
          ],
        },
        {
          id: "cannot-edit",
          title: "Why can't I edit?",
          paragraphs: ["Your role in the active workspace is viewer. Ask an owner to change your role, or switch to another workspace in the top bar."],
        },
        {
          id: "missing-rate",
          title: "Why does an amount not count in the total?",
          paragraphs: [
            "Adding amounts in different currencies needs the exchange rate of that date. When there is none, the amount is left out and flagged rather than converted carelessly. You can type your own rate for that currency.",
          ],
          links: [
            { to: "/", label: "Dashboard: manual exchange rates" },
          ],
        },
        {
          id: "flows",
          title: "How are flows and their projection worked out?",
          paragraphs: [
            "A flow is money coming in or going out: a rent, a salary, a loan payment, the interest on a deposit. A periodic one happens on its date and then every day, week, month, quarter or year up to its end date (included). If it starts on the 31st, shorter months use their last day: 31 January, 28 February, 31 March.",
            "“Next 12 months” adds up from today; the monthly projection runs from this month to the next 11 and the yearly one from this year to the next 4. Each currency has its own line: flows in different currencies are never added together.",
          ],
          links: [
            { to: "/flows", label: "Flows" },
          ],
        },
        {
          id: "export",
          title: "Can I export my data?",
          paragraphs: [
            "Yes: in “Asset List”, “Download CSV” downloads the assets the search shows, with numbers in your format, ready to open in a spreadsheet.",
            "And in your profile, “Download my data” downloads everything you keep (assets, valuations, structures, liabilities, flows, beneficiaries, instructions, tasks and logins of all your workspaces) as a JSON file other apps can read. It is made on the device, offline too. The passwords and notes of the logins vault are left out.",
          ],
          links: [
            { to: "/assets", label: "Asset List" },
            { to: "/profile", label: "Your profile: your data" },
          ],
        },
        {
          id: "overdue",
          title: "When is a task overdue?",
          paragraphs: [
            "When its due date has passed on your device's calendar and the task is not done. Done tasks are kept, folded under “Done”.",
          ],
          links: [
            { to: "/tasks", search: { overdue: 1 }, label: "See the overdue tasks" },
          ],
        },
        {
          id: "advice",
          title: "Does Patrimonio advise me what to do with my money?",
          paragraphs: ["No. It is a record of your wealth; for financial, tax or legal decisions, ask a professional."],
        },
      ],
    },
  ],
};
