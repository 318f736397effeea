"""faster-whisper's log-mel (its FeatureExtractor), the reference for ours and the input of fine-tuning."""
import importlib.util
import os
import sys


def feature_extractor():
    """faster-whisper's FeatureExtractor, loaded from its file so the package's heavy imports (av, onnxruntime) are not needed."""
    spec = importlib.util.find_spec("faster_whisper")
    if spec is None:
        sys.exit(f"{os.path.basename(sys.argv[0])}: faster-whisper is not installed (pip install --no-deps faster-whisper==1.2.1)")
    path = os.path.join(spec.submodule_search_locations[0], "feature_extractor.py")
    module_spec = importlib.util.spec_from_file_location("faster_whisper_feature_extractor", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module.FeatureExtractor()
