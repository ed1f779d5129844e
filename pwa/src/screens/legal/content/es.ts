// Las páginas legales en español (el idioma principal). Mismos documentos e ids de sección que en.ts.
import type { LegalTexts } from "./types";

export const legalEs: LegalTexts = {
  terms: {
    title: "Condiciones de uso",
    updated: "2026-11-24",
    intro: [
      "Estas condiciones regulan el uso de esta instalación de Patrimonio. Patrimonio es un programa para llevar el control de tu patrimonio personal. Esta instalación la gestiona su operador: la persona u organización que la ha instalado en su servidor y responde de ella. Al crear una cuenta aceptas estas condiciones.",
    ],
    sections: [
      {
        id: "service",
        heading: "Qué es el servicio",
        paragraphs: [
          "Patrimonio te permite registrar tus activos, pasivos, beneficiarios e instrucciones para tu legado, y te muestra gráficos de tu patrimonio. Es una herramienta de registro: no da asesoramiento financiero, fiscal ni jurídico, no guarda ni mueve dinero, y las cifras que muestra son tan exactas como los datos que introduces.",
        ],
      },
      {
        id: "account",
        heading: "Tu cuenta",
        paragraphs: [
          "Necesitas una cuenta con una dirección de correo electrónico que puedas leer. Debes tener la edad legal para contratar en tu país.",
          "Guarda bien tu contraseña, tu aplicación de autenticación, tus códigos de recuperación y tus llaves de acceso: lo que se haga con tu cuenta es responsabilidad tuya. Si crees que alguien ha entrado en ella, cambia la contraseña y avisa al operador cuanto antes.",
        ],
      },
      {
        id: "data",
        heading: "Tus datos",
        paragraphs: [
          "Los registros que introduces son tuyos. El operador los guarda solo para prestarte el servicio a ti y a las personas con las que compartes un espacio de trabajo, como explica la política de privacidad.",
          "Si introduces datos de otras personas (por ejemplo, de tus beneficiarios), asegúrate de que puedes hacerlo y de que son correctos.",
        ],
      },
      {
        id: "workspaces",
        heading: "Espacios de trabajo compartidos",
        paragraphs: [
          "Además de tu espacio personal puedes crear espacios de equipo e invitar a otras personas. Según su rol, los miembros pueden leer los registros (lectores) o también modificarlos (editores y propietarios). Los propietarios deciden quién es miembro; quien sale o es retirado pierde el acceso a los registros del espacio.",
        ],
      },
      {
        id: "offline",
        heading: "Uso sin conexión y sincronización",
        paragraphs: [
          "La aplicación guarda una copia de los registros de tus espacios en cada dispositivo donde inicias sesión, para funcionar sin conexión. Los cambios hechos sin conexión se envían cuando el dispositivo vuelve a conectarse; si dos dispositivos modifican el mismo registro, la aplicación conserva una versión y te avisa del conflicto.",
          "Mantén tus dispositivos bloqueados: mientras tienes la sesión iniciada, quien pueda usar tu navegador puede leer la copia que hay en él. Al cerrar la sesión se borra de ese dispositivo.",
        ],
      },
      {
        id: "billing",
        heading: "Suscripción y pagos",
        paragraphs: [
          "Cuando el operador activa el cobro en esta instalación, usar el servicio requiere una suscripción mensual, y puede pedirse una verificación única de la tarjeta de 1 dólar estadounidense. Los pagos los procesa Stripe; los precios se muestran antes de suscribirte. Puedes cancelar cuando quieras, y la suscripción termina al final del periodo ya pagado.",
          "Cuando el cobro no está activado, el servicio es gratuito.",
        ],
      },
      {
        id: "use",
        heading: "Uso aceptable",
        paragraphs: ["No uses el servicio para nada ilícito. En particular, no:"],
        items: [
          "intentes acceder a datos que no son tuyos ni se han compartido contigo;",
          "perturbes el servicio ni lo sobrecargues a propósito;",
          "busques vulnerabilidades en él sin permiso del operador.",
        ],
      },
      {
        id: "availability",
        heading: "Disponibilidad y responsabilidad",
        paragraphs: [
          "El operador pone un cuidado razonable en mantener el servicio disponible y tus datos a salvo, con copias de seguridad, pero no puede prometer que nunca se interrumpa. Guarda tu propia copia de lo que más te importe.",
          "En la medida en que la ley lo permite, el operador no responde de las decisiones que tomes basándote en las cifras de la aplicación. Nada de estas condiciones limita los derechos que te reconoce la normativa de consumo.",
        ],
      },
      {
        id: "closing",
        heading: "Cierre de la cuenta",
        paragraphs: [
          "Puedes eliminar tu cuenta cuando quieras desde tu perfil. Así se borran del servidor tu cuenta y tu espacio personal y se cierran tus sesiones en todos los dispositivos. Los espacios de equipo de los que eres propietario deben eliminarse o pasar antes a otro propietario.",
          "El operador puede suspender o cerrar una cuenta que incumpla estas condiciones de forma grave o reiterada, explicando el motivo a su titular.",
        ],
      },
      {
        id: "changes",
        heading: "Cambios en estas condiciones",
        paragraphs: [
          "El operador puede actualizar estas condiciones. Los cambios importantes se anuncian en la aplicación o por correo antes de que entren en vigor. La fecha al principio de esta página es la de la versión vigente.",
        ],
      },
      {
        id: "contact",
        heading: "Contacto",
        paragraphs: [
          "Para cualquier pregunta sobre estas condiciones, escribe al operador de esta instalación, a la dirección desde la que el servicio envía sus correos o a la que publique para ello.",
        ],
      },
    ],
  },
  privacy: {
    title: "Política de privacidad",
    updated: "2026-11-24",
    intro: [
      "Esta política explica qué datos tuyos guarda esta instalación de Patrimonio, dónde y para qué. Patrimonio funciona primero en local: tus registros viven en tus dispositivos y se sincronizan a través del servidor de esta instalación.",
    ],
    sections: [
      {
        id: "controller",
        heading: "Quién es el responsable",
        paragraphs: [
          "El responsable del tratamiento de tus datos es el operador de esta instalación: la persona u organización que gestiona su servidor. Puedes escribirle a la dirección desde la que el servicio envía sus correos o a la que publique para ello.",
        ],
      },
      {
        id: "device",
        heading: "Qué se queda en tu dispositivo",
        paragraphs: [
          "Mientras tienes la sesión iniciada, el almacenamiento de tu navegador guarda una copia de los registros de tus espacios y los cambios aún no enviados, para que la aplicación funcione sin conexión. El navegador guarda también los archivos de la aplicación (para que abra sin conexión), tu idioma y tu tema, y si ya te avisó de que la aplicación está lista para usarse sin conexión.",
          "Al cerrar la sesión se borran de ese dispositivo los registros, los cambios pendientes y los datos guardados para tu cuenta. El idioma, el tema y los archivos de la aplicación se quedan, porque son del dispositivo, no tuyos.",
        ],
      },
      {
        id: "server",
        heading: "Qué guarda el servidor",
        paragraphs: ["El servidor de esta instalación guarda:"],
        items: [
          "tu cuenta: dirección de correo, contraseña (solo un resumen irreversible argon2id, nunca la contraseña), segundos factores (el secreto de la aplicación de autenticación cifrado, los códigos de recuperación resumidos y las claves públicas de tus llaves de acceso) y el avance de la configuración inicial;",
          "tus datos de identidad: nombre, apellidos, fecha de nacimiento, género, país y provincia de residencia;",
          "tus sesiones, con el navegador, la dirección de red y la hora de su último uso, para proteger tu cuenta;",
          "tus espacios de trabajo, sus miembros e invitaciones, y los registros que introduces en ellos, con el historial de cambios que permite sincronizar tus dispositivos.",
        ],
      },
      {
        id: "purposes",
        heading: "Para qué se usan",
        paragraphs: [
          "Tus datos se usan solo para prestarte el servicio (la base jurídica es el contrato entre tú y el operador), para mantenerlo seguro, por ejemplo frenando los intentos fallidos repetidos de iniciar sesión (interés legítimo), y para enviarte los correos que el servicio necesita.",
          "Sin publicidad ni perfiles, y tus datos nunca se venden ni se alquilan a nadie.",
        ],
      },
      {
        id: "sharing",
        heading: "Quién más puede verlos",
        paragraphs: [
          "Los miembros de un espacio de trabajo ven sus registros según su rol. El operador, y quien gestione el servidor por encargo suyo, puede acceder a él para mantenerlo en marcha.",
          "El operador se apoya en proveedores que actúan siguiendo sus instrucciones: el alojamiento del servidor, el envío de correo y, cuando el cobro está activado, Stripe, que procesa los pagos (los datos de tu tarjeta van directamente a Stripe; esta instalación solo conoce el estado de tu suscripción). Cuando la instalación usa un proveedor externo de inicio de sesión, es ese proveedor quien gestiona el acceso. Solo se entregan datos a las autoridades cuando la ley lo exige.",
        ],
      },
      {
        id: "cookies",
        heading: "Cookies",
        paragraphs: ["Esta aplicación usa solo dos cookies, y ninguna sirve para seguirte:"],
        items: [
          "la cookie de sesión (patrimonio_session), que mantiene tu sesión iniciada; los scripts no pueden leerla y caduca tras 7 días sin uso, y como mucho a los 30 días;",
          "la cookie de idioma (i18next), que recuerda el idioma que elegiste cuando existe.",
        ],
      },
      {
        id: "email",
        heading: "Correo electrónico",
        paragraphs: [
          "El servicio te escribe solo cuando lo necesita: códigos para verificar tu dirección o confirmar un cambio delicado, avisos sobre tu cuenta, invitaciones a espacios de trabajo y, cuando el cobro está activado, mensajes sobre tus pagos. No envía boletines ni publicidad.",
        ],
      },
      {
        id: "retention",
        heading: "Cuánto tiempo se conservan",
        paragraphs: [
          "Tus datos se conservan mientras exista tu cuenta. Cuando la eliminas, se borran al momento del servidor tu cuenta y tu espacio personal y se cierran todas tus sesiones; los registros de los espacios de equipo se quedan en esos espacios para sus demás miembros. Las copias de seguridad se sobrescriben en su ciclo normal, y los registros de pagos se guardan el tiempo que exige la normativa fiscal.",
        ],
      },
      {
        id: "security",
        heading: "Seguridad",
        paragraphs: [
          "Las conexiones van cifradas (HTTPS), los scripts no pueden leer la cookie de sesión, las contraseñas se guardan solo como resúmenes, los secretos van cifrados y el inicio de sesión puede exigir un segundo factor. Tus registros no van cifrados de extremo a extremo: el servidor los guarda para que tus dispositivos puedan sincronizarse.",
        ],
      },
      {
        id: "rights",
        heading: "Tus derechos",
        paragraphs: [
          "Puedes acceder a tus datos, rectificarlos (casi todos desde tu perfil), suprimirlos (eliminando tu cuenta), y pedir que se limite su uso, oponerte a él o recibirlos en un formato portable, escribiendo al operador. También puedes reclamar ante la autoridad de protección de datos; en España, la Agencia Española de Protección de Datos (aepd.es).",
        ],
      },
      {
        id: "changes",
        heading: "Cambios en esta política",
        paragraphs: [
          "El operador puede actualizar esta política. Los cambios importantes se anuncian en la aplicación o por correo antes de que entren en vigor. La fecha al principio de esta página es la de la versión vigente.",
        ],
      },
    ],
  },
};
