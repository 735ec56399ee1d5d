// The pictures of quantscope-cli drawn with the GUI's own views (qs_ui), offscreen: the
// PictureOutputs of quantscope-cli-pictures. One file per kind of picture:
// analysis_image.cpp, model_report_image.cpp, explorer_pictures.cpp.
#pragma once

#include "app/cli/picture_outputs.h"

namespace qs::cli {

class WidgetPictures final : public PictureOutputs {
public:
    Result<QByteArray> analysisImage(const PngRequest& request, const TensorRef<float>& data) const override;
    Result<QByteArray> modelReportImage(const analysis::ModelReport& report, const std::string& path) const override;
    int writeExplorerPictures(const ExplorerPictureRequest& request) const override;
};

}  // namespace qs::cli
