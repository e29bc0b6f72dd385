import type { routes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { AiContext } from '../context.js';
import { analyzeImages } from './images.js';
import { generateByContent, generateByTranscription, knowledgeGenerate } from './usecases.js';

type GenerateRoutes = Pick<
  typeof routes,
  | 'noteGenerateByContent'
  | 'noteGenerateByTranscription'
  | 'knowledgeGenerate'
  | 'noteImagesAnalyze'
>;

export const generateHandlers = (ctx: AiContext): Handlers<GenerateRoutes> => ({
  noteGenerateByContent: ({ userId, body }) => generateByContent(ctx, userId, body),
  noteGenerateByTranscription: ({ userId, body }) => generateByTranscription(ctx, userId, body),
  knowledgeGenerate: ({ userId, body }) => knowledgeGenerate(ctx, userId, body),
  noteImagesAnalyze: ({ userId, body }) => analyzeImages(ctx, userId, body),
});
