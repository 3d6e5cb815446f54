import { ROUTES, TOOL } from '@diagrodl/contracts';
import type { MailMessage } from './mailer.ts';
import type { MailLanguage } from './language.ts';

/** The welcome mail with the generated password, in the language the user registered in. */
export function welcomeMail(
  language: MailLanguage,
  to: { email: string; firstName: string; userName: string },
  password: string,
  base: string,
): MailMessage {
  const login = `${base}${ROUTES.login}`;
  const change = `${base}${ROUTES.changePassword}`;
  if (language === 'en') {
    return {
      to: to.email,
      subject: `Your ${TOOL} account`,
      text: [
        `Hello ${to.firstName},`,
        '',
        `your ${TOOL} account has been created.`,
        '',
        `User name: ${to.userName}`,
        `Password:  ${password}`,
        '',
        `Log in here: ${login}`,
        '',
        `After logging in you can choose your own password at ${change}.`,
        'If you did not create this account, ignore this message.',
        '',
        `-- ${TOOL}`,
      ].join('\n'),
    };
  }
  return {
    to: to.email,
    subject: `Tu cuenta de ${TOOL}`,
    text: [
      `Hola ${to.firstName}:`,
      '',
      `tu cuenta de ${TOOL} ya está creada.`,
      '',
      `Nombre de usuario: ${to.userName}`,
      `Contraseña:        ${password}`,
      '',
      `Inicia sesión aquí: ${login}`,
      '',
      `Después de iniciar sesión puedes elegir tu propia contraseña en ${change}.`,
      'Si no creaste esta cuenta, ignora este mensaje.',
      '',
      `-- ${TOOL}`,
    ].join('\n'),
  };
}

/** The password-reset mail (the link works once, for one hour). */
export function resetMail(
  language: MailLanguage,
  to: { email: string; firstName: string; userName: string },
  link: string,
): MailMessage {
  if (language === 'en') {
    return {
      to: to.email,
      subject: `Reset your ${TOOL} password`,
      text: [
        `Hello ${to.firstName},`,
        '',
        `someone (hopefully you) asked to reset the password of the ${TOOL} account "${to.userName}".`,
        'Open this link to choose a new password. It works once and expires in one hour:',
        '',
        link,
        '',
        'If you did not ask for it, ignore this message: your password stays as it is.',
        '',
        `-- ${TOOL}`,
      ].join('\n'),
    };
  }
  return {
    to: to.email,
    subject: `Restablece tu contraseña de ${TOOL}`,
    text: [
      `Hola ${to.firstName}:`,
      '',
      `alguien (esperamos que tú) pidió restablecer la contraseña de la cuenta "${to.userName}" de ${TOOL}.`,
      'Abre este enlace para elegir una contraseña nueva. Funciona una sola vez y caduca en una hora:',
      '',
      link,
      '',
      'Si no lo pediste, ignora este mensaje: tu contraseña no cambia.',
      '',
      `-- ${TOOL}`,
    ].join('\n'),
  };
}

/** Confirms that an account and all its data were deleted ("Mis datos"). */
export function accountDeletedMail(
  language: MailLanguage,
  to: { email: string; firstName: string; userName: string },
  base: string,
): MailMessage {
  const register = `${base}${ROUTES.createAccount}`;
  if (language === 'en') {
    return {
      to: to.email,
      subject: `Your ${TOOL} account has been deleted`,
      text: [
        `Hello ${to.firstName},`,
        '',
        `as you asked, the ${TOOL} account "${to.userName}" has been deleted with all its data:`,
        'your profile, your diagnoses and their history, your photos, heatmaps and reports, and',
        'your sessions. The messages you sent through the contact form are kept, no longer linked',
        'to any account.',
        '',
        `You can create a new account at any time, with the same user name and email: ${register}`,
        '',
        `If you did not ask for this, write to us at once: ${base}${ROUTES.contact}`,
        '',
        `-- ${TOOL}`,
      ].join('\n'),
    };
  }
  return {
    to: to.email,
    subject: `Tu cuenta de ${TOOL} se borró`,
    text: [
      `Hola ${to.firstName}:`,
      '',
      `como lo pediste, la cuenta "${to.userName}" de ${TOOL} se borró con todos sus datos:`,
      'tu perfil, tus diagnósticos y su historial, tus fotos, mapas de calor y reportes, y tus',
      'sesiones. Los mensajes que enviaste por el formulario de contacto se conservan, ya sin',
      'relación con ninguna cuenta.',
      '',
      `Puedes crear una cuenta nueva cuando quieras, con el mismo nombre de usuario y correo: ${register}`,
      '',
      `Si no lo pediste tú, escríbenos cuanto antes: ${base}${ROUTES.contact}`,
      '',
      `-- ${TOOL}`,
    ].join('\n'),
  };
}
