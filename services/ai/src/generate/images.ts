import type { ImageAnalysis, ImageAnalyze } from '@noted/api';
import { AppError, type Parsed } from '@noted/api';
import { noteForAi, type AiContext } from '../context.js';
import { chatText, type Usage } from '../providers/port.js';

/** `/api/notes/{id}/images/{name}`: the only images analysed are the user's own notes'. */
const NOTE_IMAGE = /^\/api\/notes\/([0-9a-f-]{36})\/images\/([A-Za-z0-9._-]{1,200})$/i;

const PROMPT =
  'Describe this image for a note-taking app in two to four sentences: what it shows, and ' +
  'any text in it word for word. Answer with the description only.';

/** Describes images of the user's notes with the vision model; each note must allow AI. */
export const analyzeImages = async (
  ctx: AiContext,
  userId: string,
  input: Parsed<typeof ImageAnalyze>,
): Promise<ImageAnalysis> => {
  const { imageUrls } = input;
  const model = ctx.provider.models.vision;
  if (!model) {
    throw new AppError(
      'AI_MODEL_REQUIRED',
      'Describing images needs a vision model: set OPENAI_BASE_URL and OPENAI_VISION_MODEL',
    );
  }
  const located = imageUrls.map((imageUrl) => {
    const match = NOTE_IMAGE.exec(new URL(imageUrl, 'http://noted.invalid').pathname);
    if (!match) {
      throw new AppError('VALIDATION_FAILED', 'Only images of your notes can be analysed', {
        imageUrl,
      });
    }
    return { imageUrl, noteId: match[1] as string, name: match[2] as string };
  });
  for (const noteId of new Set(located.map((image) => image.noteId))) {
    await noteForAi(ctx, userId, noteId);
  }
  const usage: Usage = { promptTokens: 0, completionTokens: 0 };
  const images = [];
  for (const image of located) {
    const { data, contentType } = await ctx.notes.image(userId, image.noteId, image.name);
    const dataUrl = `data:${contentType};base64,${Buffer.from(data).toString('base64')}`;
    const answer = await chatText(
      ctx.provider.chat(
        [{ role: 'user', content: { text: PROMPT, imageUrls: [dataUrl] } }],
        { maxTokens: 400, temperature: 0.2 },
        { userId, purpose: 'vision' },
      ),
    );
    usage.promptTokens += answer.usage?.promptTokens ?? 0;
    usage.completionTokens += answer.usage?.completionTokens ?? 0;
    images.push({ imageUrl: image.imageUrl, description: answer.text.trim() });
  }
  return { images, model, usage };
};
