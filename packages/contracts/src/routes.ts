/**
 * Every route of the specification's route table, spelled exactly. The web router
 * renders them and the server answers them with the SPA (history fallback).
 */
export const ROUTES = {
  home: '/',
  about: '/About',
  contact: '/Contact_us',
  login: '/Login_session',
  createAccount: '/Create_account',
  converter: '/Universal_conversor',
  principalDesigner: '/Principal_designer',
  secondaryDesigner: '/Secondary_designer',
  lateralDesigner: '/Lateral_designer',
  tool: '/DiAgroDL',
  aboutTool: '/About_DiAgroDL',
  tomatoCrops: '/Tomato_crops',
  spiderMites: '/Spider_mites',
  bacterialSpot: '/Bacterial_spot',
  earlyBlight: '/Early_blight',
  lateBlight: '/Late_blight',
  leafMold: '/Leaf_mold',
  mosaicVirus: '/Mosaic_virus',
  septoriaLeafSpot: '/Septoria_leaf_spot',
  targetSpot: '/Target_spot',
  tylcv: '/Tylcv',
  custom: '/Custom',
  upload: '/upload',
  predictRows: '/Predict_rows',
  createReport: '/Create_report',
  getPredict: '/Get_predict',
  // Beyond the specification's table:
  history: '/Historial',
  irrigationScheduling: '/Irrigation_scheduling',
  seasonCalendar: '/Season_calendar',
  changePassword: '/Change_password',
  resetPassword: '/Reset_password',
  myData: '/Mis_datos',
} as const;

export type RouteKey = keyof typeof ROUTES;
export type RoutePath = (typeof ROUTES)[RouteKey];

export const ALL_ROUTE_PATHS: readonly string[] = Object.values(ROUTES);

/** Routes anyone may open, in the adaptive shell (the public one for visitors). */
export const OPEN_ROUTES: readonly string[] = [
  ROUTES.home,
  ROUTES.about,
  ROUTES.contact,
  ROUTES.login,
  ROUTES.createAccount,
  ROUTES.resetPassword,
];

/** Routes that need a logged-in user: the engineering tools and the diagnosis flow. */
export const PROTECTED_ROUTES: readonly string[] = [
  ROUTES.converter,
  ROUTES.principalDesigner,
  ROUTES.secondaryDesigner,
  ROUTES.lateralDesigner,
  ROUTES.irrigationScheduling,
  ROUTES.seasonCalendar,
  ROUTES.tool,
  ROUTES.custom,
  ROUTES.upload,
  ROUTES.predictRows,
  ROUTES.createReport,
  ROUTES.getPredict,
  ROUTES.history,
  ROUTES.changePassword,
  ROUTES.myData,
];

/** Disease and crop pages, shown with the disease top navigation bar. */
export const DISEASE_ROUTES: readonly string[] = [
  ROUTES.bacterialSpot,
  ROUTES.earlyBlight,
  ROUTES.lateBlight,
  ROUTES.leafMold,
  ROUTES.septoriaLeafSpot,
  ROUTES.spiderMites,
  ROUTES.targetSpot,
  ROUTES.mosaicVirus,
  ROUTES.tylcv,
  ROUTES.tomatoCrops,
  ROUTES.aboutTool,
];

/**
 * /upload opened to take a photo ('Diagnosticar una hoja' on the landing page and the signed-in
 * home): the camera field has the focus, one press from the camera.
 */
export const TAKE_PHOTO_QUERY = { name: 'photo', value: 'take' } as const;
export const UPLOAD_TAKE_PHOTO = `${ROUTES.upload}?${TAKE_PHOTO_QUERY.name}=${TAKE_PHOTO_QUERY.value}`;
