import { Router } from 'express';
import { userIdOf } from '@noted/kit';
import type { AiContext } from '../context.js';
import { analyzeImages } from './images.js';
import { generateByContent, generateByTranscription, knowledgeGenerate } from './usecases.js';

export const generateRouter = (ctx: AiContext): Router => {
  const router = Router();

  router.post('/api/note/generate/bycontent', async (req, res) => {
    res.json(await generateByContent(ctx, userIdOf(req), req.body));
  });

  router.post('/api/note/generate/bytranscription', async (req, res) => {
    res.json(await generateByTranscription(ctx, userIdOf(req), req.body));
  });

  router.post('/api/knowledge/generate', async (req, res) => {
    res.json(await knowledgeGenerate(ctx, userIdOf(req), req.body));
  });

  router.post('/api/note/images/analyze', async (req, res) => {
    res.json(await analyzeImages(ctx, userIdOf(req), req.body));
  });

  return router;
};
