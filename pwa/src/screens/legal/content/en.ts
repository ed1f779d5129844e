// The legal pages in English. Same documents and section ids as es.ts (Spanish is the main language).
import type { LegalTexts } from "./types";

export const legalEn: LegalTexts = {
  terms: {
    title: "Terms of service",
    updated: "2026-11-24",
    intro: [
      "These terms govern the use of this Patrimonio instance. Patrimonio is software for keeping track of your personal wealth. This instance is run by its operator: the person or organisation that installed it on its server and answers for it. By creating an account you accept these terms.",
    ],
    sections: [
      {
        id: "service",
        heading: "What the service is",
        paragraphs: [
          "Patrimonio lets you record your assets, liabilities, beneficiaries and instructions for your legacy, and shows charts of your wealth. It is a record-keeping tool: it gives no financial, tax or legal advice, it does not hold or move money, and the figures it shows are only as accurate as the data you enter.",
        ],
      },
      {
        id: "account",
        heading: "Your account",
        paragraphs: [
          "You need an account with an e-mail address you can read. You must be of legal age to enter into a contract in your country.",
          "Keep your password, your authenticator app, your recovery codes and your passkeys safe: whatever is done with your account is your responsibility. If you think someone else has got into it, change your password and tell the operator straight away.",
        ],
      },
      {
        id: "data",
        heading: "Your data",
        paragraphs: [
          "The records you enter are yours. The operator keeps them only to provide the service to you and to the people you share a workspace with, as the privacy policy explains.",
          "If you enter data about other people (for example, your beneficiaries), make sure you may do so and that it is accurate.",
        ],
      },
      {
        id: "workspaces",
        heading: "Shared workspaces",
        paragraphs: [
          "Besides your personal workspace you can create team workspaces and invite other people. Depending on their role, members can read the records (viewers) or also change them (editors and owners). The owners decide who is a member; anyone who leaves or is removed loses access to the workspace's records.",
        ],
      },
      {
        id: "offline",
        heading: "Working offline and synchronising",
        paragraphs: [
          "The app keeps a copy of your workspaces' records on every device where you sign in, so that it works without a connection. Changes made offline are sent when the device is back online; if two devices change the same record, the app keeps one version and tells you about the conflict.",
          "Keep your devices locked: while you are signed in, anyone who can use your browser can read the copy on it. Signing out deletes it from that device.",
        ],
      },
      {
        id: "billing",
        heading: "Subscription and payments",
        paragraphs: [
          "When the operator enables billing on this instance, using the service requires a monthly subscription, and a one-off card verification of 1 US dollar may be asked for. Payments are processed by Stripe; prices are shown before you subscribe. You can cancel at any time, and the subscription then ends at the end of the period already paid.",
          "When billing is not enabled, the service is provided free of charge.",
        ],
      },
      {
        id: "use",
        heading: "Acceptable use",
        paragraphs: ["Do not use the service for anything unlawful. In particular, do not:"],
        items: [
          "try to reach data that is not yours or not shared with you;",
          "disrupt the service or overload it on purpose;",
          "probe it for vulnerabilities without the operator's permission.",
        ],
      },
      {
        id: "availability",
        heading: "Availability and liability",
        paragraphs: [
          "The operator takes reasonable care to keep the service available and your data safe, with backups, but cannot promise that it will never be interrupted. Keep your own copy of whatever matters most to you.",
          "As far as the law allows, the operator is not liable for decisions you take on the basis of the figures in the app. Nothing in these terms limits the rights that consumer law gives you.",
        ],
      },
      {
        id: "closing",
        heading: "Closing your account",
        paragraphs: [
          "You can delete your account at any time from your profile. This erases your account and your personal workspace from the server and ends your sessions on every device. Team workspaces you own must first be deleted or handed over to another owner.",
          "The operator may suspend or close an account that seriously or repeatedly breaks these terms, telling its holder why.",
        ],
      },
      {
        id: "changes",
        heading: "Changes to these terms",
        paragraphs: [
          "The operator may update these terms. Important changes are announced in the app or by e-mail before they take effect. The date at the top of this page is that of the current version.",
        ],
      },
      {
        id: "contact",
        heading: "Contact",
        paragraphs: [
          "For any question about these terms, write to the operator of this instance, at the address from which the service sends its e-mails or the one they publish for it.",
        ],
      },
    ],
  },
  privacy: {
    title: "Privacy policy",
    updated: "2026-11-24",
    intro: [
      "This policy explains which data this Patrimonio instance keeps about you, where and why. Patrimonio is local-first: your records live on your devices and are synchronised through this instance's server.",
    ],
    sections: [
      {
        id: "controller",
        heading: "Who is responsible",
        paragraphs: [
          "The controller of your data is the operator of this instance: the person or organisation that runs its server. You can reach them at the address from which the service sends its e-mails or the one they publish for it.",
        ],
      },
      {
        id: "device",
        heading: "What stays on your device",
        paragraphs: [
          "While you are signed in, your browser's storage keeps a copy of your workspaces' records and the changes not yet sent, so that the app works without a connection. The browser also keeps the app's files (so it opens offline), your language and theme, and whether it has already told you the app is ready to work offline.",
          "Signing out deletes the records, the pending changes and the data kept for your account from that device. The language, the theme and the app's files stay, because they belong to the device, not to you.",
        ],
      },
      {
        id: "server",
        heading: "What the server keeps",
        paragraphs: ["The server of this instance keeps:"],
        items: [
          "your account: e-mail address, password (only an irreversible argon2id hash, never the password itself), second factors (the authenticator secret encrypted, the recovery codes hashed, the public keys of your passkeys) and onboarding progress;",
          "your personal identity data: first name, last name, date of birth, gender, country and province of residence;",
          "your sessions, with the browser, the network address and the time of their last use, to protect your account;",
          "your workspaces, their members and invitations, and the records you enter in them, with the change history that lets your devices synchronise.",
        ],
      },
      {
        id: "purposes",
        heading: "What it is used for",
        paragraphs: [
          "Your data is used only to provide you with the service (the legal basis is the contract between you and the operator), to keep it secure, for example by slowing down repeated failed sign-ins (legitimate interest), and to send you the e-mails the service needs.",
          "No advertising, no profiling, and your data is never sold or rented to anyone.",
        ],
      },
      {
        id: "sharing",
        heading: "Who else can see it",
        paragraphs: [
          "The members of a workspace see its records according to their role. The operator, and whoever runs the server on their behalf, can access it to keep it working.",
          "The operator relies on service providers that act on their instructions: the hosting of the server, the delivery of e-mail and, when billing is enabled, Stripe, which processes the payments (your card details go straight to Stripe; this instance only learns the state of your subscription). When the instance uses a hosted sign-in provider, that provider handles the sign-in. Data is only handed to authorities when the law requires it.",
        ],
      },
      {
        id: "cookies",
        heading: "Cookies",
        paragraphs: ["This app uses only two cookies, and neither of them tracks you:"],
        items: [
          "the session cookie (patrimonio_session), which keeps you signed in; it cannot be read by scripts and expires after 7 days without use, and after 30 days at most;",
          "the language cookie (i18next), which remembers the language you chose when it is set.",
        ],
      },
      {
        id: "email",
        heading: "E-mail",
        paragraphs: [
          "The service writes to you only when it needs to: codes to verify your address or to confirm a sensitive change, notices about your account, invitations to workspaces and, when billing is enabled, messages about your payments. It sends no newsletters or advertising.",
        ],
      },
      {
        id: "retention",
        heading: "How long it is kept",
        paragraphs: [
          "Your data is kept while your account exists. When you delete your account, your account and your personal workspace are erased from the server at once and all your sessions end; the records of team workspaces stay with those workspaces for their other members. Backups are overwritten in their normal cycle, and payment records are kept for as long as tax law requires.",
        ],
      },
      {
        id: "security",
        heading: "Security",
        paragraphs: [
          "Connections are encrypted (HTTPS), the session cookie cannot be read by scripts, passwords are stored only as hashes, secrets are encrypted, and sign-in can require a second factor. Your records are not end-to-end encrypted: the server keeps them so that your devices can synchronise.",
        ],
      },
      {
        id: "rights",
        heading: "Your rights",
        paragraphs: [
          "You can access your data, correct it (most of it from your profile), erase it (by deleting your account), and ask for it to be restricted, to object to its use or to receive it in a portable format, by writing to the operator. You may also complain to your data protection authority; in Spain, the Agencia Española de Protección de Datos (aepd.es).",
        ],
      },
      {
        id: "changes",
        heading: "Changes to this policy",
        paragraphs: [
          "The operator may update this policy. Important changes are announced in the app or by e-mail before they take effect. The date at the top of this page is that of the current version.",
        ],
      },
    ],
  },
};
