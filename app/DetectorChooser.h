#pragma once
// DetectorChooser: the top of the Detector panel. Which detector: nanoBragg's one flat
// detector, a preset (compute/model/DetectorPresets.h) or the geometry file last opened
// (File > Open detector geometry); where its panels come from and the image they make; and,
// for a detector of several panels, a read-only list of its modules: name, pixels fast x
// slow, pixel size and the centre where the simulation puts it (after -distance, the
// rotations and two-theta).
//
//     chooser.choose(chooser.choice()->findData("jungfrau-4m")); // as picking it in the list
//     chooser.modules()->topLevelItemCount();                    // 8
//
// Choosing edits the document (ExperimentDocument::setDetectorSource / useFlatDetector); a
// file that can no longer be read leaves the detector as it was and shows the reader's
// message under the list.

#include <QWidget>

class QComboBox;
class QLabel;
class QTreeWidget;

namespace bv {
struct ResolvedExperiment;
}

namespace bv::app {

class ExperimentDocument;

class DetectorChooser : public QWidget {
    Q_OBJECT

  public:
    explicit DetectorChooser(ExperimentDocument& document, QWidget* parent = nullptr);

    QComboBox* choice() const { return m_choice; }
    QTreeWidget* modules() const { return m_modules; }
    QLabel* sourceLabel() const { return m_source; }

    // Chooses item `index` of choice(), as the user does.
    void choose(int index);
    // Reads the document (and where the panels are placed, from `resolved`) again.
    void refresh(const ResolvedExperiment* resolved);

  private:
    void selectCurrent();

    ExperimentDocument& m_document;
    QComboBox* m_choice = nullptr;
    QLabel* m_source = nullptr;
    QTreeWidget* m_modules = nullptr;
    QLabel* m_error = nullptr;
    bool m_refreshing = false;
};

} // namespace bv::app
